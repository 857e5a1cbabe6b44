/**
 * `next` and `previous` name several activity types: each record is paired with the lead's first (last) activity of
 * any of them after (before) it. Trial s34 N501 ("bounced addresses that still open or click"): `next` took one type,
 * so the same 1,788 activities were read twice, once per type, and the two pairings joined by hand.
 *
 * The invariant, fast-check over windows, type pairs and ways through MCP on the sandbox: with ":any" (the lead
 * alone, or each type on its own asset when alike), each record's hours to its pair over two types are the fewer of
 * its hours over each type alone.
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
          // Two primary kinds (Mailing ID, Webpage ID): each pairs on its own asset (review s42, 2).
          ["Send Email", "Visit Webpage"],
        ),
        fc.constantFrom("next", "previous"),
        fc.constantFrom(":any", ""),
        async (since, [a, b], way, any) => {
          const read = (pair: string) =>
            mkto.ok<Read>({
              method: "GET",
              endpoint: "/rest/v1/activities.json",
              query_parameters: { sinceDatetime: since, activityTypeIds: `Email Bounced,${a},${b}` },
              paginate: true,
              max_pages: 200,
              max_items: 100_000,
              [way]: `${pair}${any}`,
            });
          const hours = (rows: Activity[]) =>
            new Map(rows.map((row) => [row.id, row[`${way}_hours`] as number | null]));
          /** Every record of the read: the kept result whole when the answer shows part of it. */
          const all = async (pair: string) => {
            const answer = await read(pair);
            return { rows: await mkto.results(answer), first: answer.first };
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
      { numRuns: 10, examples: [["2026-11-15", ["Send Email", "Visit Webpage"], "previous", ""]] },
    );
  });

  it("over a grouped read cut short, gives no pair that an unread activity of a stopped type could precede", {
    timeout: 120_000,
  }, async () => {
    // More than 10 types are read in groups (Open Email with Add to List in the second); max_items stops one.
    const read = async (max_items: number) => {
      const answer = await mkto.ok<Read>({
        method: "GET",
        endpoint: "/rest/v1/activities.json",
        query_parameters: { sinceDatetime: "2026-11-20", activityTypeIds: "8,11,1,2,3,6,7,9,12,13,10,24" },
        paginate: true,
        max_pages: 200,
        max_items,
        next: "Open Email,Click Email:any",
      });
      return { rows: await mkto.results(answer), first: answer.first };
    };
    const whole = await read(100_000);
    const truth = new Map(whole.rows.map((row) => [row.id, row.next_hours]));
    // Past the first group's records (Click Email among them), into half of the second's (Open Email, Add to List).
    const second = whole.rows.filter((row) => [10, 24].includes(Number(row.activityTypeId))).length;
    const cut = await read(whole.rows.length - Math.floor(second / 2));
    const stopped = /the read of ([^,;]+?) stopped at (\S+?),/.exec(cut.first);
    expect(stopped?.[1]).toBe("Open Email");
    let paired = 0;
    for (const row of cut.rows) {
      if (row.next === null) continue;
      paired += 1;
      expect(row.next_hours, JSON.stringify(row)).toBe(truth.get(row.id));
    }
    expect(paired).toBeGreaterThan(0);
  });

  it("takes :any after any of the types, for all of them", async () => {
    const read = (pair: string) =>
      mkto.ok<Read>({
        method: "GET",
        endpoint: "/rest/v1/activities.json",
        query_parameters: {
          sinceDatetime: "2026-11-20",
          activityTypeIds: "Email Bounced,Open Email,Click Email",
        },
        paginate: true,
        next: pair,
        count_by: "next.activityType",
      });
    const [end, first] = [await read("Open Email,Click Email:any"), await read("Open Email:any,Click Email")];
    expect(first.data.result).toEqual(end.data.result);
    expect(first.first).toContain("lead's first Open Email or Click Email after it among");
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
