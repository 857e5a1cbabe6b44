/**
 * where's `in result(…)` (kept-lists.ts), review s38: the list a kept column gives keeps exactly the records the same
 * values written by hand keep — text that looks like a number stays text ("007" is not 7; two 16-digit ids stay
 * two), a "$" in a value is kept as written, a dotted column reads inside objects, a column of objects and a result
 * cut at the most a result keeps are refused, an empty column keeps no record with in and every one with not in,
 * and the reference is found in any case and with either quote.
 */
import { describe, expect, it } from "vitest";
import { parseExpression, RECORDS_DIALECT } from "../../../src/tools/filter/parser.js";
import { checkHeldWhere, keptLists } from "../../../src/tools/records/kept-lists.js";
import { recordTest } from "../../../src/tools/records/match.js";
import type { KeptResult } from "../../../src/tools/types.js";

const LINK = "martech-steps://results/abc.json";
const keptOf = (result: KeptResult) => async (id: string) => (id === "abc" ? result : undefined);
const test = (where: string) =>
  recordTest(parseExpression(where, { field: "where", hint: "" }, RECORDS_DIALECT));

/** The records of `values` a where with the kept rows as its list keeps, and those the hand-written list keeps. */
async function kept(rows: Record<string, unknown>[], where: string, records: Record<string, unknown>[]) {
  const expanded = await keptLists(where, keptOf({ items: rows }));
  return records.filter(test(expanded ?? where));
}

describe("in result(…): a kept column as where's list", () => {
  it("keeps what the same values written by hand keep", async () => {
    const records = [
      { f: 7 },
      { f: "007" },
      { f: 7.0 },
      { f: "1234567890123457" },
      { f: "US$$5" },
      { f: "x" },
    ];
    const rows = [{ f: "007" }, { f: "1234567890123456" }, { f: "US$$5" }, { f: "123456789012345678901234" }];
    const byHand = records.filter(
      test('f in ("007", "1234567890123456", "US$$5", "123456789012345678901234")'),
    );
    expect(await kept(rows, `f in result("${LINK}")`, records)).toEqual(byHand);
    expect(byHand).toEqual([{ f: "007" }, { f: "US$$5" }]);
    // Numbers kept as numbers are where's numbers; the reference is found in any case, with either quote.
    expect(await kept([{ f: 7 }], `f IN result ('${LINK}')`, records)).toEqual(
      records.filter(test("f in (7)")),
    );
    // The console's links name the same kept result (review s38, 10).
    for (const link of [
      "http://127.0.0.1:1/console/api/results/abc/download/json",
      "/console/api/results/abc/pages/2",
    ]) {
      expect(await kept(rows, `f in result("${link}")`, records)).toEqual(byHand);
    }
  });

  it("reads a dotted column inside objects; refuses a column of objects, a cut result, a missing column", async () => {
    const rows = [{ m: { s: "Member" } }, { m: { s: "Attended" } }];
    const records = [{ status: "Member" }, { status: "Invited" }];
    expect(await kept(rows, `status in result("${LINK}", "m.s")`, records)).toEqual([{ status: "Member" }]);
    await expect(keptLists(`status in result("${LINK}", "m")`, keptOf({ items: rows }))).rejects.toThrow(
      "holds objects or lists, not single values",
    );
    await expect(
      keptLists(
        `id in result("${LINK}")`,
        keptOf({ items: [{ id: 1 }], cut: "holds the first 1 of 9 results" }),
      ),
    ).rejects.toThrow("holds the first 1 of 9 results: as a list it would leave the rest out");
    await expect(keptLists(`leadId in result("${LINK}")`, keptOf({ items: [{ id: 1 }] }))).rejects.toThrow(
      `Name its column after the link, e.g. result("${LINK}", "id")`,
    );
  });

  it("reads per's rows' listed values one by one (review s38, 3)", async () => {
    const rows = [
      { activityType: "Open Email", leadId: "3 + 12 + 40" },
      { activityType: "Click Email", leadId: "7" },
    ];
    const records = [{ leadId: 3 }, { leadId: 12 }, { leadId: 7 }, { leadId: 5 }];
    const expanded = await keptLists(`leadId in result("${LINK}")`, keptOf({ items: rows, rows: true }));
    expect(records.filter(test(expanded ?? ""))).toEqual([{ leadId: 3 }, { leadId: 12 }, { leadId: 7 }]);
  });

  it("keeps no record with in, and every one with not in, when the column holds no value", async () => {
    const records = [{ id: 1 }, { id: null }, {}];
    const empty = [{ id: null }, { id: "" }];
    expect(await kept(empty, `id in result("${LINK}")`, records)).toEqual([]);
    expect(await kept(empty, `id not in result("${LINK}")`, records)).toEqual(records);
  });
});

describe("in result(…) inside a quoted value (review s40, 3)", () => {
  it("is the value's text, not a reference: the where as written is kept, and a real one after it is read", async () => {
    const records = [{ e: 'x in result("' }, { e: "y" }, { e: "z" }];
    const rows = [{ e: "y" }];
    expect(await keptLists('e = "x in result(" or e = ")"', keptOf({ items: rows }))).toBeUndefined();
    checkHeldWhere('e contains "x in result(" and e != "a"', "");
    const where = `e = 'in result("${LINK}")' or e in result("${LINK}")`;
    checkHeldWhere(where, "");
    expect(await keptLists(where, keptOf({ items: rows }))).toBe(`e = 'in result("${LINK}")' or e in ("y")`);
    expect(await kept(rows, where, records)).toEqual([{ e: "y" }]);
  });
});

describe("a slip inside in result(…) (review s40, 6)", () => {
  it("is placed at the slip itself", () => {
    for (const [where, slip] of [
      [`id in result("${LINK}", ) and x = 1`, ") and x"],
      [`id in result("${LINK}') and x = 1`, "') and x"],
      [`id in result("${LINK}" and x = 1`, "and x = 1"],
      [`id in result("${LINK}", "id" and x = 1`, "and x = 1"],
    ] as const) {
      let message = "";
      try {
        checkHeldWhere(where, "");
      } catch (error) {
        message = (error as Error).message;
      }
      const at = Number(/at position (\d+)/.exec(message)?.[1]);
      expect(where.slice(at - 1), message).toBe(where.slice(where.lastIndexOf(slip)));
    }
  });
});
