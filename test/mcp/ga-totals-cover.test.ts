/**
 * Issue 27 (trial s14, N97): a filtered report's totals row did not say what it covered, and an agent could
 * not tell whether the filter applied to it. Invariant, over generated filters and limits on the sandbox: the
 * answer says what the totals cover exactly when a filter applies or rows were left out, with GA's row count;
 * and what it says is true: the totals equal the sum of every row the filter keeps (sessions by country
 * split the sessions), read whole with a large limit.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { forPeople } from "../../src/console/run-results.js";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

type Row = Record<string, string | number | null>;
interface Report {
  rows: Row[];
  totals: Row[];
  row_count: number;
  hints: string[];
}
const COVER =
  /^totals are GA's over all ([\d,]+) rows(?: where (.+?)| the filter keeps)?(?:, not only the ([\d,]+) returned)?\.$/;

const ga = gaOverMcp();

async function report(filter: string | undefined, limit: number) {
  const result = await ga.call("google_analytics_run_reports", {
    property: "412345671",
    metrics: ["sessions"],
    dimensions: ["country"],
    date_ranges: ["last28days"],
    limit,
    ...(filter ? { filter } : {}),
  });
  expect(result.isError, firstText(result)).toBeFalsy();
  const data = result.structuredContent as unknown as Report;
  // The console pages and labels its totals row itself: the note about an answer's page is the agent's.
  const person = forPeople({ summary: firstText(result).split("\n")[0] ?? "", data });
  expect(person.notes.some((note) => COVER.test(note))).toBe(false);
  return data;
}

describe("what a report's totals cover", () => {
  it("property: said exactly when a filter applies or rows were left out, and true", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.option(fc.constantFrom('deviceCategory == "mobile"', 'sessionDefaultChannelGroup == "Email"'), {
          nil: undefined,
        }),
        fc.integer({ min: 1, max: 15 }),
        async (filter, limit) => {
          const data = await report(filter, limit);
          const said = data.hints.map((h) => COVER.exec(h)).find(Boolean);
          const returned = data.rows.length;
          expect(said != null, JSON.stringify(data.hints)).toBe(
            filter !== undefined || data.row_count > returned,
          );
          if (!said) return;
          expect(Number(said[1]?.replaceAll(",", ""))).toBe(data.row_count);
          expect(said[2]).toBe(filter);
          expect(said[3] === undefined ? returned : Number(said[3])).toBe(returned);
          const whole = await report(filter, 1000);
          expect(whole.rows).toHaveLength(data.row_count);
          const sum = whole.rows.reduce((total, row) => total + Number(row.sessions), 0);
          expect(Number(data.totals[0]?.sessions)).toBe(sum);
        },
      ),
      { numRuns: 15 },
    );
  });
});
