/**
 * A report by hour of the day names the hours without a row (trial s20, N225: "23 rows of 23" was read as the
 * whole day, and hour 04 counted by hand). Invariant, over generated properties, filters and past ranges on the
 * sandbox through MCP: the hours named are exactly those of 00–23 that no row has, each of them has no sessions
 * on its own (the same report filtered to that hour has no row), and a report with all 24 names none.
 */
import fc from "fast-check";
import { expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

type Row = Record<string, string | number>;
const ga = gaOverMcp();

async function report(args: Record<string, unknown>) {
  const result = await ga.call("google_analytics_run_reports", {
    metrics: ["sessions"],
    dimensions: ["hour"],
    limit: 1000,
    ...args,
  });
  expect(result.isError, firstText(result)).toBeFalsy();
  return { text: firstText(result), rows: (result.structuredContent as { rows: Row[] }).rows };
}

it("names exactly the hours of the day without a row, each with no sessions (property)", async () => {
  let named = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom("412345671", "412345674", "423456789"),
      fc.constantFrom(
        undefined,
        'dayOfWeekName in ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")',
        'sessionDefaultChannelGroup == "Email"',
        'country == "France"',
      ),
      fc.integer({ min: 2, max: 40 }),
      fc.integer({ min: 0, max: 27 }),
      async (property, filter, back, span) => {
        const end = `${back}daysAgo`;
        const start = `${back + span}daysAgo`;
        const ask = {
          property,
          date_ranges: [{ start_date: start, end_date: end }],
          ...(filter ? { filter } : {}),
        };
        const { text, rows } = await report(ask);
        if (rows.length === 0) return;
        const seen = new Set(rows.map((row) => String(row.hour)));
        const missing = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, "0")).filter(
          (h) => !seen.has(h),
        );
        const note = /No rows for (.+?): Google Analytics returns no row where every metric is 0/.exec(text);
        if (missing.length === 0) {
          expect(note, text).toBeNull();
          return;
        }
        named += 1;
        // Every hour without a row is named, one by one.
        const listed = missing.map((h) => `hour ${h}`);
        expect(note?.[1], text).toBe(
          listed.length === 1 ? listed[0] : `${listed.slice(0, -1).join(", ")} and ${listed.at(-1)}`,
        );
        const [first] = missing;
        const condition = `hour == "${first}"`;
        const alone = await report({ ...ask, filter: filter ? `${filter} and ${condition}` : condition });
        expect(alone.rows).toHaveLength(0);
      },
    ),
    { numRuns: 20 },
  );
  expect(named).toBeGreaterThan(0);
}, 120_000);
