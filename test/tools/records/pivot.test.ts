import { describe, expect, it } from "vitest";
import { computeSpec, RecordCompute } from "../../../src/tools/records/compute.js";
import { pivotTable, rowsAtLeast } from "../../../src/tools/records/pivot.js";

/**
 * count_by's pivot (records/pivot.ts): a field written ":columns" lays its values out as columns, one row per
 * value of the other fields, 0 where none, a total per row (not with count_distinct), sums with sum, date
 * columns and rows in date order with their gaps at 0, and order_by naming a column. The property that the
 * cells are the long form's counts is in compute-properties.test.ts.
 */
type Row = Record<string, unknown>;

function run(input: Parameters<typeof computeSpec>[0], records: Row[], expected: Row[] = []) {
  const compute = new RecordCompute(computeSpec(input, "hint") ?? {});
  compute.expectValues(expected);
  for (const record of records) compute.see(record);
  return { rows: compute.finish([]), compute };
}

const ACTIVITIES: Row[] = [
  ...["A", "A", "A", "B", "B", "C"].map((email) => ({ email, type: "Send Email", lead: 1 })),
  ...["A", "A", "B"].map((email, i) => ({ email, type: "Open Email", lead: i })),
  { email: "A", type: "Click Email", lead: 2 },
];

describe("count_by with a :columns field", () => {
  it("lays out one row per email and a column per type, 0 where none, each row's total, largest first", () => {
    const { rows, compute } = run({ count_by: "email,type:columns" }, ACTIVITIES);
    expect(rows).toEqual([
      { email: "A", "Send Email": 3, "Open Email": 2, "Click Email": 1, total: 6 },
      { email: "B", "Send Email": 2, "Open Email": 1, "Click Email": 0, total: 3 },
      { email: "C", "Send Email": 1, "Open Email": 0, "Click Email": 0, total: 1 },
    ]);
    expect(compute.pivot?.columns).toEqual(["Send Email", "Open Email", "Click Email"]);
    expect(compute.spec.countBy).toEqual(["email", "type"]);
  });

  it("takes the columns field in any position, and order_by a column's name with spaces, or -total", () => {
    const { rows } = run({ count_by: "type:columns,email", order_by: "-Open Email,email" }, ACTIVITIES);
    expect(rows.map((row) => [row.email, row["Open Email"]])).toEqual([
      ["A", 2],
      ["B", 1],
      ["C", 0],
    ]);
    const ascending = run({ count_by: "email,type:columns", order_by: "total" }, ACTIVITIES).rows;
    expect(ascending.map((row) => row.email)).toEqual(["C", "B", "A"]);
  });

  it("refuses an order_by that is no row field, column or total, naming the columns", () => {
    expect(() => run({ count_by: "email,type:columns", order_by: "-Bounce" }, ACTIVITIES)).toThrow(
      /order_by sorts the rows, which have no column "Bounce": they have email, total, Send Email, Open Email, Click Email/,
    );
  });

  it("with count_distinct each cell is the distinct count and there is no total", () => {
    const { rows } = run({ count_by: "email,type:columns", count_distinct: "lead" }, ACTIVITIES);
    expect(rows).toEqual([
      { email: "A", "Send Email": 1, "Open Email": 2, "Click Email": 1 },
      { email: "B", "Send Email": 1, "Open Email": 1, "Click Email": 0 },
      { email: "C", "Send Email": 1, "Open Email": 0, "Click Email": 0 },
    ]);
  });

  it("with sum each cell adds the field, and the total adds the cells", () => {
    const { rows } = run({ count_by: "email,type:columns", sum: "lead" }, ACTIVITIES);
    expect(rows[0]).toEqual({ email: "A", "Send Email": 3, "Open Email": 1, "Click Email": 2, total: 6 });
  });

  it("date columns in date order, a week with no record listed at 0; rows by a date in date order", () => {
    const leads: Row[] = [
      { at: "2026-11-02T10:00:00Z", source: "Web" },
      { at: "2026-11-03T10:00:00Z", source: "Web" },
      { at: "2026-11-19T10:00:00Z", source: "Fair" },
    ];
    const byWeek = run({ count_by: "source,at:week:columns" }, leads);
    expect(byWeek.compute.pivot?.columns).toEqual(["2026-11-02", "2026-11-09", "2026-11-16"]);
    expect(byWeek.rows).toEqual([
      { source: "Web", "2026-11-02": 2, "2026-11-09": 0, "2026-11-16": 0, total: 2 },
      { source: "Fair", "2026-11-02": 0, "2026-11-09": 0, "2026-11-16": 1, total: 1 },
    ]);
    expect(byWeek.compute.pivot?.filled).toBe(1);
    const rowsByWeek = run({ count_by: "at:week,source:columns" }, leads).rows;
    expect(rowsByWeek).toEqual([
      { "at:week": "2026-11-02", Web: 2, Fair: 0, total: 2 },
      { "at:week": "2026-11-09", Web: 0, Fair: 0, total: 0 },
      { "at:week": "2026-11-16", Web: 0, Fair: 1, total: 1 },
    ]);
  });

  it("a weekday column for every day of the week, Monday first, 0 where none", () => {
    const { rows, compute } = run({ count_by: "source,at:weekday:columns" }, [
      { at: "2026-11-04T10:00:00Z", source: "Web" },
      { at: "2026-11-01T10:00:00Z", source: "Web" },
    ]);
    expect(compute.pivot?.columns).toEqual([
      "Monday",
      "Tuesday",
      "Wednesday",
      "Thursday",
      "Friday",
      "Saturday",
      "Sunday",
    ]);
    expect(rows[0]).toMatchObject({ source: "Web", Monday: 0, Wednesday: 1, Sunday: 1, total: 2 });
  });

  it("refuses more columns than a table shows, saying to put :columns on the field with fewer values", () => {
    const many = Array.from({ length: 201 }, (_, i) => ({ id: i, type: "Send Email" }));
    const refused = (() => {
      try {
        run({ count_by: "type,id:columns" }, many);
      } catch (error) {
        return error as { message: string; hint?: string };
      }
    })();
    expect(refused?.message).toContain("id has 201 values, more columns than 200");
    expect(refused?.hint).toContain('e.g. "id,type:columns"');
    expect(run({ count_by: "id,type:columns" }, many).rows).toHaveLength(201);
  });

  it("a type asked for and not seen is a column of 0; an empty value is the (empty) column, last", () => {
    const { rows } = run(
      { count_by: "email,type:columns" },
      [...ACTIVITIES, { email: "C", type: null }],
      [{ type: "Unsubscribe Email" }],
    );
    expect(Object.keys(rows[0] ?? {})).toEqual([
      "email",
      "Send Email",
      "Open Email",
      "Click Email",
      "Unsubscribe Email",
      "(empty)",
      "total",
    ]);
    expect(rows.find((row) => row.email === "C")).toMatchObject({
      "Unsubscribe Email": 0,
      "(empty)": 1,
      total: 2,
    });
  });

  it("names a column that is a row field or total after its field", () => {
    const { rows } = run({ count_by: "email,type:columns" }, [{ email: "A", type: "total" }]);
    expect(rows).toEqual([{ email: "A", "type=total": 1, total: 1 }]);
  });

  it("refuses two :columns fields, min_count with one alone, and a field no record has", () => {
    expect(() => computeSpec({ count_by: "a:columns,b:columns" }, "")).toThrow(
      /only one field can be the columns/,
    );
    expect(() => computeSpec({ count_by: "b:columns", min_count: 2 }, "")).toThrow(
      /min_count: with b:columns alone there is one row/,
    );
    expect(() => computeSpec({ count_by: "a,b:columns", min_count: 2 }, "")).not.toThrow();
    expect(() => run({ count_by: "email,tpye:columns" }, ACTIVITIES)).toThrow(/tpye/);
  });

  it("leaves out the columns only rows min_count left out had, keeping one a rate names exactly (review s55, F5)", () => {
    const counted = [
      { src: "Web", score: 126, count: 300 },
      { src: "Web", score: 12, count: 5 },
      { src: "Ads", score: 26, count: 1 },
      { src: "Ads", score: 6, count: 1 },
    ];
    const spec = { countBy: ["src", "score"], columns: "score", minCount: 100 };
    const ranked = (field: string) => ({ ...spec, order: [{ field, desc: true }] });
    const columns = (order: ReturnType<typeof ranked>) =>
      pivotTable(order, counted, [], rowsAtLeast(order, counted, 100).keep).columns;
    expect(columns(ranked("126%"))).toEqual(["126", "12"]);
    expect(columns(ranked("26/total"))).toEqual(["126", "12", "26"]);
  });
});
