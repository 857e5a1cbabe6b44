import { describe, expect, it } from "vitest";
import { ValidationError } from "../../../src/errors.js";
import { parseExpression, RECORDS_DIALECT } from "../../../src/tools/filter/parser.js";
import { computeSpec, RecordCompute } from "../../../src/tools/records/compute.js";
import { Counter, MAX_GROUPS } from "../../../src/tools/records/count.js";
import { closestFirst } from "../../../src/tools/records/fields.js";
import { recordTest } from "../../../src/tools/records/match.js";
import { parseSortKeys, sortRecords } from "../../../src/tools/records/order.js";
import { numberOf, timeOf } from "../../../src/tools/records/values.js";

/**
 * where, order_by and count_by over records (src/tools/records/): the records dialect of the shared filter
 * syntax, its evaluation on JSON and CSV values alike, sorting, counting and the unknown-field refusal.
 */
const AT = { field: "where", hint: "the hint" };
const where = (source: string) => recordTest(parseExpression(source, AT, RECORDS_DIALECT));
const _SEED = 27;

describe("values: numbers, times and text as the records hold them", () => {
  it("reads numbers and numeric text alike, nothing else", () => {
    expect([51, "51", "-2.5", "1e3", " 5", "", "5a", null, true].map(numberOf)).toEqual([
      51,
      51,
      -2.5,
      1000,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("reads Marketo's datetimes, with their zones, and dates as UTC midnight", () => {
    const at = Date.parse("2021-11-23T22:57:08Z");
    expect(timeOf("2021-11-23T22:57:08Z")).toBe(at);
    expect(timeOf("2021-11-23T22:57:08Z+0000")).toBe(at);
    expect(timeOf("2021-11-23T17:57:08-0500")).toBe(at);
    expect(timeOf("2021-11-24T00:57:08+02:00")).toBe(at);
    expect(timeOf("2021-11-23")).toBe(Date.parse("2021-11-23T00:00:00Z"));
    expect(timeOf("2021-02-30")).toBeUndefined();
    expect(timeOf("23/11/2021")).toBeUndefined();
  });
});

describe("where on records", () => {
  const lead = {
    id: 7,
    email: "Ada@Acme.com",
    leadScore: "51",
    company: null,
    createdAt: "2024-03-01T10:00:00Z",
  };

  it.each([
    ["leadScore > 50", true],
    ["leadScore > 51", false],
    ['leadScore == "51"', true],
    ["leadScore between 50 and 51", true],
    ['email ends_with "@acme.com"', true],
    ['email == "ada@acme.com"', true],
    ['email contains "bob"', false],
    ["company is empty", true],
    ["company == null", true],
    ['company == "x"', false],
    ['company != "x"', true],
    ["id in (3, 7)", true],
    ['id in ("7")', true],
    ["id not in (3, 7)", false],
    ['createdAt >= "2024-03-01"', true],
    ['createdAt < "2024-03-01T10:00:00Z"', false],
    ['createdAt > "2024-03-01T06:00:00-05:00"', false],
    ['createdAt > "2024-02-29T23:00:00-05:00"', true],
    ['email > "a"', true],
    ['leadScore > 50 and not (email begins_with "bob" or company is not empty)', true],
    ["missing is empty", true],
    ["missing > 1", false],
  ])("%s → %s", (source, expected) => {
    expect(where(source)(lead)).toBe(expected);
  });

  it.each([
    ['email matches "^a"', /regular expression/],
    ['email =~ "a"', /regular expression/],
    ["leadScore > ", /needs a number, a quoted date or text, or another field.s name/],
    ["id in ()", /quoted text or a number/],
  ])("refuses %j with a ValidationError on where", (source, pattern) => {
    expect(() => where(source)).toThrow(ValidationError);
    expect(() => where(source)).toThrow(pattern);
  });
});

describe("order_by and count_by", () => {
  it("reads sort keys as a comma list with - for descending", () => {
    expect(parseSortKeys("-leadScore, email,updatedAt desc")).toEqual([
      { field: "leadScore", desc: true },
      { field: "email", desc: false },
      { field: "updatedAt", desc: true },
    ]);
    expect(() => parseSortKeys("-,email")).toThrow(/is not a field to sort by/);
  });

  it("sorts numeric text by value, empty values last either way, ties in read order", () => {
    const rows = [
      { id: 1, score: "9" },
      { id: 2, score: null },
      { id: 3, score: "10" },
      { id: 4, score: 10 },
    ];
    expect(sortRecords([...rows], [{ field: "score", desc: false }]).map((r) => r.id)).toEqual([1, 3, 4, 2]);
    expect(sortRecords([...rows], [{ field: "score", desc: true }]).map((r) => r.id)).toEqual([3, 4, 1, 2]);
  });

  const noContainer = (field: string): never => {
    throw new Error(`${field} holds an object`);
  };

  it('counts 51 and "51" as one value and refuses a field with a value per record past the limit', () => {
    const counter = new Counter(["score"], noContainer);
    for (const score of [51, "51", null, ""]) counter.add({ score });
    expect(counter.rows()).toEqual([
      { score: 51, count: 2, percent: 50 },
      { score: null, count: 2, percent: 50 },
    ]);
    const many = new Counter(["email"], noContainer);
    expect(() => {
      for (let i = 0; i <= MAX_GROUPS; i++) many.add({ email: `lead${i}@example.com` });
    }).toThrow(/more than 100,000 distinct values/);
  });

  it("ignoring case, merges spellings into the first read and bounds the spellings it holds", () => {
    const counter = new Counter(["email"], noContainer, { ignoreCase: true });
    for (const email of ["Ada@X.com", " ada@x.com", "ada@x.com", "Ada@X.com", "  ", null, "b@x.com"]) {
      counter.add({ email });
    }
    expect(counter.rows()).toEqual([
      { email: "Ada@X.com", count: 4, percent: 57.1, spellings: 3 },
      { email: null, count: 2, percent: 28.6, spellings: 2 },
      { email: "b@x.com", count: 1, percent: 14.3, spellings: 1 },
    ]);
    expect(counter.rows(2).map((row) => row.email)).toEqual(["Ada@X.com", null]);
    // 2^17 spellings of one name: one group, refused past the spellings the plain count would refuse.
    const cased = new Counter(["name"], noContainer, { ignoreCase: true });
    const name = "abcdefghijklmnopq";
    const spelling = (i: number) =>
      [...name].map((c, bit) => ((i >> bit) & 1 ? c.toUpperCase() : c)).join("");
    expect(() => {
      for (let i = 0; i <= MAX_GROUPS; i++) cased.add({ name: spelling(i) });
    }).toThrow(/more than 100,000 distinct spellings/);
    expect(cased.size).toBe(1);
  });

  it("names a long count_by condition's column by its start and length; two alike get columns of their own", () => {
    const ids = (from: number) => Array.from({ length: 40 }, (_, i) => from + i).join(",");
    const [a, b] = [`id in (${ids(1000)})`, `id in (${ids(1000).replace(/1039$/, "1099")})`];
    expect(a.length).toBe(b.length);
    const spec = computeSpec({ count_by: `${a},${b},${a},leadScore > 50` }, "hint");
    const [first, second, short] = spec?.countBy ?? [];
    expect(first).toBe(`${a.slice(0, 60).trimEnd()}… (${a.length} characters)`);
    expect(second).toBe(`${first} #2`);
    expect(short).toBe("leadScore > 50");
    expect(spec?.countBy).toHaveLength(3);
    // A short condition keeps its own name beside one it begins (review s29, finding 10).
    expect(computeSpec({ count_by: "leadScore > 50,leadScore > 5" }, "hint")?.countBy).toEqual([
      "leadScore > 50",
      "leadScore > 5",
    ]);
  });

  it("refuses a count_by bucket in where, before anything is sent (trial s26, N348)", () => {
    expect(() => computeSpec({ where: 'createdAt:weekday == "Saturday"' }, "hint")).toThrow(
      "createdAt:weekday is a count_by bucket, not a field",
    );
    expect(computeSpec({ where: 'createdAt >= "2026-11-01"' }, "hint")).toBeDefined();
  });

  it("takes min_count and count_by_ignore_case only with count_by; ignoring case, order_by may sort by spellings", () => {
    for (const input of [{ min_count: 2 }, { count_by_ignore_case: true }]) {
      const field = Object.keys(input)[0];
      expect(() => computeSpec(input, "hint")).toThrow(`Invalid ${field}: it applies to count_by's counts`);
    }
    expect(computeSpec({ count_by_ignore_case: false }, "hint")).toBeUndefined();
    expect(
      computeSpec({ count_by: "email", count_by_ignore_case: true, order_by: "-spellings" }, "hint"),
    ).toEqual({
      countBy: ["email"],
      ignoreCase: true,
      order: [{ field: "spellings", desc: true }],
    });
    expect(() => computeSpec({ count_by: "email", order_by: "-spellings" }, "hint")).toThrow(
      "only count, percent, email",
    );
  });

  it("reads a dotted path into a record's objects in where, order_by and count_by, and quoted names", () => {
    const rows = [
      { id: 1, membership: { progressionStatus: "Attended", isExhausted: false }, "Lead Score": 5 },
      { id: 2, membership: { progressionStatus: "Registered", isExhausted: true }, "Lead Score": 9 },
      { id: 3, membership: { progressionStatus: "Attended", isExhausted: true }, "Lead Score": 7 },
    ];
    const where = new RecordCompute(
      computeSpec({ where: 'membership.progressionStatus == "Attended" and "Lead Score" > 5' }, "h") ?? {},
    );
    expect(rows.filter((row) => where.see(row)).map((row) => row.id)).toEqual([3]);
    const sorted = new RecordCompute(computeSpec({ order_by: '-"Lead Score"' }, "h") ?? {});
    for (const row of rows) sorted.see(row);
    expect(sorted.finish([...rows]).map((row) => row.id)).toEqual([2, 3, 1]);
    const counted = new RecordCompute(
      computeSpec({ count_by: 'membership.progressionStatus,"membership.isExhausted"' }, "h") ?? {},
    );
    for (const row of rows) counted.see(row);
    expect(counted.finish([])).toEqual([
      {
        "membership.progressionStatus": "Attended",
        "membership.isExhausted": false,
        count: 1,
        percent: 33.3,
        "percent_in_membership.progressionStatus": 50,
      },
      {
        "membership.progressionStatus": "Attended",
        "membership.isExhausted": true,
        count: 1,
        percent: 33.3,
        "percent_in_membership.progressionStatus": 50,
      },
      {
        "membership.progressionStatus": "Registered",
        "membership.isExhausted": true,
        count: 1,
        percent: 33.3,
        "percent_in_membership.progressionStatus": 100,
      },
    ]);
  });

  it("refuses count_by on an object with the paths inside it, and lists nested paths for an unknown field", () => {
    const row = { id: 1, membership: { progressionStatus: "Attended", isExhausted: false } };
    const counted = new RecordCompute(computeSpec({ count_by: "membership" }, "h") ?? {});
    expect(() => counted.see(row)).toThrow(
      "Invalid count_by: membership holds objects, not one value a record can be counted by; the fields inside it are membership.progressionStatus, membership.isExhausted.",
    );
    const wrong = new RecordCompute(computeSpec({ where: 'membership.status == "Attended"' }, "h") ?? {});
    wrong.see(row);
    expect(() => wrong.finish([])).toThrow(
      /it has membership\.(isExhausted|progressionStatus), membership\.(isExhausted|progressionStatus), id, membership \(closest first\)/,
    );
  });

  it("refuses a field no record has, naming the fields they have, closest first", () => {
    const compute = new RecordCompute(computeSpec({ where: "leadscore > 50" }, "hint") ?? {});
    compute.see({ id: 1, email: "a@x.com", leadScore: 3, leadSource: "Web" });
    expect(() => compute.finish([])).toThrow(
      "Invalid where: the one record read has no field named leadscore; it has leadScore, leadSource, email, id (closest first).",
    );
    expect(closestFirst("emial", ["id", "email", "emailInvalid"])[0]).toBe("email");
  });

  it("counts over matching records only, most frequent first, ties by value", () => {
    const compute = new RecordCompute(computeSpec({ where: "n > 1", count_by: "kind" }, "hint") ?? {});
    const records = [
      { n: 1, kind: "a" },
      { n: 2, kind: "b" },
      { n: 3, kind: "a" },
      { n: 4, kind: "b" },
      { n: 5, kind: "c" },
    ];
    for (const record of records) expect(compute.see(record)).toBe(false);
    expect(compute.finish([])).toEqual([
      { kind: "b", count: 2, percent: 50 },
      { kind: "a", count: 1, percent: 25 },
      { kind: "c", count: 1, percent: 25 },
    ]);
    expect([compute.read, compute.matched, compute.groups]).toEqual([5, 4, 3]);
  });
});
