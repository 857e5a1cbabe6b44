/**
 * A funnel over two date ranges (trial s21, N244: the agent ran one funnel per period and worked out every rate
 * and change). Invariant, over generated pairs of periods and step lists on the sandbox: the compared rows are
 * the two single-period funnels side by side: each step's users and completion rate per period are those of
 * the funnel run on that period alone, the change is their difference (users in %, rates in points), and the
 * summary's overall shares are the last step's users over the first's in each.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

type Row = Record<string, string | number | null>;
const rowsOf = (r: CallToolResult) => (r.structuredContent as { rows: Row[] }).rows;
const ga = gaOverMcp();
const STEPS = ["session_start", "view_item", "add_to_cart", "begin_checkout", "purchase"];

async function funnel(args: Record<string, unknown>) {
  const result = await ga.call("google_analytics_run_reports", { property: "412345671", ...args });
  expect(result.isError, firstText(result)).toBeFalsy();
  return { rows: rowsOf(result), summary: firstText(result) };
}

const round = (value: number) => Math.round(value * 10) / 10;
const month = fc.integer({ min: 0, max: 10 }).map((back) => {
  const start = new Date(Date.UTC(2026, 10 - back, 1));
  const end = new Date(Date.UTC(2026, 11 - back, 0));
  return { start_date: start.toISOString().slice(0, 10), end_date: end.toISOString().slice(0, 10) };
});

describe("a funnel compared over two periods", () => {
  it("property: each period's steps are its own funnel's, with the change", async () => {
    await fc.assert(
      fc.asyncProperty(
        month,
        month,
        fc.subarray(STEPS, { minLength: 2 }),
        fc.boolean(),
        async (earlier, later, steps, open) => {
          fc.pre(earlier.start_date !== later.start_date);
          const asked = { funnel: { steps, ...(open ? { open } : {}) } };
          const both = await funnel({ ...asked, date_ranges: [earlier, later] });
          const [a, b] = [
            await funnel({ ...asked, date_ranges: [earlier] }),
            await funnel({ ...asked, date_ranges: [later] }),
          ];
          const [from, to] = [earlier, later].map((r) => `${r.start_date}…${r.end_date}`);
          expect(both.rows).toHaveLength(steps.length);
          both.rows.forEach((row, i) => {
            const [x, y] = [a.rows[i] as Row, b.rows[i] as Row];
            expect(row.step).toBe(steps[i]);
            expect([row[`users[${from}]`], row[`users[${to}]`]]).toEqual([x.users, y.users]);
            expect(row.users_change).toBe(Number(y.users) - Number(x.users));
            expect(row[`completion_rate_pct[${from}]`]).toBe(x.completion_rate_pct);
            expect(row[`completion_rate_pct[${to}]`]).toBe(y.completion_rate_pct);
            const change =
              x.completion_rate_pct === null || y.completion_rate_pct === null
                ? null
                : round(Number(y.completion_rate_pct) - Number(x.completion_rate_pct));
            expect(row.completion_rate_pct_change).toBe(change);
          });
          const share = (rows: Row[]) =>
            round((Number(rows[rows.length - 1]?.users) / Number(rows[0]?.users)) * 100);
          if (Number(a.rows[0]?.users) > 0 && Number(b.rows[0]?.users) > 0) {
            expect(both.summary).toContain(`went from ${share(a.rows)} % to ${share(b.rows)} %`);
          }
        },
      ),
      { numRuns: 8 },
    );
  }, 120_000);
});
