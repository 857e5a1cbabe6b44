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
import { firstText, gaOverMcp, propertySpan } from "../helpers/ga-mcp.js";

const DAY_MS = 86_400_000;

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
  it("property: each period's steps are its own funnel's, earlier to later, with the change", async () => {
    await fc.assert(
      fc.asyncProperty(
        month,
        month,
        fc.subarray(STEPS, { minLength: 2 }),
        fc.boolean(),
        fc.boolean(),
        async (one, two, steps, open, broken) => {
          fc.pre(one.start_date !== two.start_date);
          // Asked in either order, compared from the earlier to the later (review s25, finding 2).
          const [earlier, later] = one.start_date < two.start_date ? [one, two] : [two, one];
          const funnelOf = {
            steps,
            ...(open ? { open } : {}),
            ...(broken ? { breakdown: "deviceCategory" } : {}),
          };
          const both = await funnel({ funnel: funnelOf, date_ranges: [one, two] });
          const [a, b] = [
            await funnel({ funnel: funnelOf, date_ranges: [earlier] }),
            await funnel({ funnel: funnelOf, date_ranges: [later] }),
          ];
          const [from, to] = [earlier, later].map((r) => `${r.start_date}…${r.end_date}`);
          const key = (row: Row) => `${row.step_number}/${broken ? row.deviceCategory : ""}`;
          const byKey = (run: { rows: Row[] }) => new Map(run.rows.map((row) => [key(row), row]));
          const [byA, byB] = [byKey(a), byKey(b)];
          expect(both.rows).toHaveLength(new Set([...a.rows, ...b.rows].map(key)).size);
          for (const row of both.rows) {
            const [x, y] = [byA.get(key(row)), byB.get(key(row))];
            expect([row[`users[${from}]`], row[`users[${to}]`]]).toEqual([x?.users ?? 0, y?.users ?? 0]);
            expect(row.users_change).toBe(Number(y?.users ?? 0) - Number(x?.users ?? 0));
            const [rateA, rateB] = [x?.completion_rate_pct ?? null, y?.completion_rate_pct ?? null];
            expect([row[`completion_rate_pct[${from}]`], row[`completion_rate_pct[${to}]`]]).toEqual([
              rateA,
              rateB,
            ]);
            const change = rateA === null || rateB === null ? null : round(Number(rateB) - Number(rateA));
            expect(row.completion_rate_pct_change).toBe(change);
          }
          // The overall share over each step's (all) rows with a breakdown (review s25, finding 1).
          const all = (rows: Row[]) => (broken ? rows.filter((row) => row.deviceCategory === "(all)") : rows);
          const share = (rows: Row[]) =>
            round((Number(all(rows).at(-1)?.users) / Number(all(rows)[0]?.users)) * 100);
          if (Number(all(a.rows)[0]?.users) > 0 && Number(all(b.rows)[0]?.users) > 0) {
            expect(both.summary).toContain(`From ${from} to ${to}, `);
            expect(both.summary).toContain(`went from ${share(a.rows)} % to ${share(b.rows)} %`);
          }
        },
      ),
      { numRuns: 10 },
    );
  }, 180_000);

  it("says when the periods differ in length", async () => {
    const both = await funnel({
      funnel: { steps: ["session_start", "purchase"] },
      date_ranges: [
        { start_date: "2026-11-01", end_date: "2026-11-30" },
        { start_date: "2026-10-01", end_date: "2026-10-31" },
      ],
    });
    expect(both.summary).toContain("The periods differ in length: 2026-10-01…2026-10-31 has 31 days");
    // Doing what it offers: the same number of days in each compares like for like, and is not said again.
    const offered = /date_ranges (\[.*?\])\./.exec(both.summary)?.[1];
    expect(offered).toBeDefined();
    const aligned = await funnel({
      funnel: { steps: ["session_start", "purchase"] },
      date_ranges: JSON.parse(offered as string),
    });
    expect(aligned.summary).not.toContain("differ in length");
  });

  it("says when a period starts before the data, and its offer compares the days with data in both (review s30, finding 4)", async () => {
    const { first } = await propertySpan(ga, "412345671");
    const at = Date.parse(`${first}T00:00:00Z`);
    const day = (offset: number) => new Date(at + offset * DAY_MS).toISOString().slice(0, 10);
    const asked = {
      funnel: { steps: ["session_start", "purchase"] },
      date_ranges: [
        { start_date: day(-30), end_date: day(29), name: "a" },
        { start_date: day(335), end_date: day(394), name: "b" },
      ],
    };
    const early = await funnel(asked);
    expect(early.summary).toContain(`Data starts on ${first}`);
    expect(early.summary).toContain("has 30 of its 60 days before it, with no data");
    const offered = /compare only the days with data in both: date_ranges (\[.*?\])\./.exec(
      early.summary,
    )?.[1];
    expect(offered, early.summary).toBeDefined();
    const aligned = await funnel({ ...asked, date_ranges: JSON.parse(offered as string) });
    expect(aligned.summary).not.toContain("Data starts on");
    // A period wholly before the data has no users, so no rate, and no change of rate (review s31, finding 1).
    const before = await funnel({
      ...asked,
      date_ranges: [
        { start_date: day(-61), end_date: day(-1), name: "a" },
        { start_date: day(335), end_date: day(394), name: "b" },
      ],
    });
    expect(before.summary).toContain(
      "a: No active user did session_start: the funnel has no users, and no rates.",
    );
    for (const row of before.rows) {
      expect(row["completion_rate_pct[a]"]).toBeNull();
      expect(row.completion_rate_pct_change).toBeNull();
    }
    // One range: its figures cover only the days with data, and it says so.
    const one = await funnel({ ...asked, date_ranges: [asked.date_ranges[0]] });
    expect(one.summary).toContain(`Its figures cover only the days with data: ${first}…${day(29)}`);
  });
});
