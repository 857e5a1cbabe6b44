/**
 * Programs' period costs, as Get Program by Id returns them: `costs: [{startDate, cost, note}]`, a period's
 * start date, a whole amount and a note (Adobe's Programs page, "Costs":
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/programs), the start date
 * written as the Asset API writes its dates, "2026-10-01T00:00:00Z+0000" (its Swagger's pattern). A few programs
 * carry one to four monthly periods, so "spend per program" has something to add (issue 27).
 */
import type { Prng } from "../prng.js";
import type { Program, ProgramCost } from "./types.js";

const NOTES = ["Paid social", "Sponsorship", "Content syndication", "Venue and catering", "Search ads"];

/** The first of the month `back` months before the month of `now`, as "2026-10-01T00:00:00Z+0000". */
function monthStart(now: number, back: number): string {
  const at = new Date(now);
  return (
    new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - back, 1)).toISOString().slice(0, 10) +
    "T00:00:00Z+0000"
  );
}

/** Gives about one program in three 1–4 consecutive monthly costs, drawn from `prng` alone. */
export function seedProgramCosts(prng: Prng, programs: readonly Program[], now: number): void {
  for (const program of programs) {
    if (!prng.chance(0.35)) continue;
    const periods = prng.int(1, 4);
    const costs: ProgramCost[] = [];
    for (let i = periods - 1; i >= 0; i -= 1) {
      costs.push({ startDate: monthStart(now, i), cost: prng.int(5, 400) * 50, note: prng.pick(NOTES) });
    }
    program.costs = costs;
  }
}
