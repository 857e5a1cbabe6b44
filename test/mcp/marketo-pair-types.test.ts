/**
 * `next` and `previous` name several activity types: each record is paired with the lead's first (last) activity of
 * any of them after (before) it. Trial s34 N501 ("bounced addresses that still open or click"): `next` took one type,
 * so the same 1,788 activities were read twice, once per type, and the two pairings joined by hand.
 *
 * The invariant, fast-check over windows, type pairs and ways through MCP on the sandbox: with ":any" (the lead
 * alone), each record's hours to its pair over two types are the fewer of its hours over each type alone.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

type Activity = Record<string, unknown> & { id: number };
interface Read {
  result: Activity[];
}

const mkto = seededMarketo(300);

describe("next and previous over several activity types", () => {
  it("pairs each record with the nearer of the types' pairs, as the types apart give them", {
    timeout: 180_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("2026-11-01", "2026-11-15"),
        fc.constantFrom(
          ["Open Email", "Click Email"],
          ["Visit Webpage", "Fill Out Form"],
          ["Send Email", "Email Delivered"],
        ),
        fc.constantFrom("next", "previous"),
        async (since, [a, b], way) => {
          const read = (pair: string) =>
            mkto.ok<Read>({
              method: "GET",
              endpoint: "/rest/v1/activities.json",
              query_parameters: { sinceDatetime: since, activityTypeIds: `Email Bounced,${a},${b}` },
              paginate: true,
              max_pages: 200,
              max_items: 100_000,
              [way]: `${pair}:any`,
            });
          const hours = (rows: Activity[]) =>
            new Map(rows.map((row) => [row.id, row[`${way}_hours`] as number | null]));
          /** Every record of the read: the kept result whole when the answer shows part of it. */
          const all = async (pair: string) => {
            const answer = await read(pair);
            const link = answer.links.find((l) => l.mimeType === "application/json")?.uri;
            const rows = link
              ? (JSON.parse(await mkto.whole(`${link}?page=all`)) as Activity[])
              : answer.data.result;
            return { rows, first: answer.first };
          };
          const both = await all(`${a},${b}`);
          const [first, second] = [await all(a), await all(b)];
          const [alone1, alone2] = [hours(first.rows), hours(second.rows)];
          let paired = 0;
          for (const row of both.rows) {
            const apart = [alone1.get(row.id), alone2.get(row.id)].filter(
              (h): h is number => typeof h === "number",
            );
            const want = apart.length > 0 ? Math.min(...apart) : null;
            expect(row[`${way}_hours`], JSON.stringify(row)).toBe(want);
            if (want !== null) paired += 1;
          }
          expect(both.rows.length).toBe(first.rows.length);
          expect(paired).toBeGreaterThan(0);
          expect(both.first).toContain(`lead's ${way === "next" ? "first" : "last"} ${a} or ${b} `);
        },
      ),
      { numRuns: 6 },
    );
  });

  it("refuses types not read, naming each, and its hint works", async () => {
    const call = (types: string) =>
      mkto.call<Read>({
        method: "GET",
        endpoint: "/rest/v1/activities.json",
        query_parameters: { sinceDatetime: "2026-11-20", activityTypeIds: types },
        paginate: true,
        next: "Open Email,Click Email",
      });
    const refused = await call("Email Bounced");
    expect(refused.result.isError).toBe(true);
    expect(refused.text).toMatch(
      /next: Open Email \(10\), Click Email \(11\) are not among the activityTypeIds read/,
    );
    const hint = /activityTypeIds "([^"]+)"/.exec(refused.text)?.[1] ?? "";
    expect((await call(hint)).result.isError).toBeFalsy();
  });
});
