/**
 * `in (…)` looks numbers and plain text up in sets (match.ts oneOf), since a list from a kept result holds thousands
 * of ids (kept-lists.ts). The invariant, fast-check over lists and values: `f in (a, b, …)` keeps exactly the records
 * `f == a or f == b or …` keeps — numbers against numeric text, text ignoring case, a date alone against times of
 * its day, the empty text against empty values.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseExpression, RECORDS_DIALECT } from "../../../src/tools/filter/parser.js";
import { recordTest } from "../../../src/tools/records/match.js";

const AT = { field: "where", hint: "" };
const test = (source: string) => recordTest(parseExpression(source, AT, RECORDS_DIALECT));

const literal = fc.oneof(
  fc.integer({ min: -3, max: 12 }).map(String),
  fc.constantFrom('"7"', '"abc"', '"ABC"', '"2026-11-05"', '""', '"-2"', '"x y"'),
);
const value = fc.oneof(
  fc.integer({ min: -3, max: 12 }),
  fc.constantFrom(
    "7",
    " 7",
    "abc",
    "Abc",
    "x y",
    "",
    null,
    undefined,
    "2026-11-05T10:00:00Z",
    "2026-11-06T00:00:00Z",
    3.5,
    "-2",
  ),
);

describe("in (…) keeps what the same values' == joined with or keep", () => {
  it("over generated lists and values", () => {
    fc.assert(
      fc.property(
        fc.array(literal, { minLength: 1, maxLength: 8 }),
        fc.array(value, { maxLength: 20 }),
        (list, values) => {
          const inList = test(`f in (${list.join(", ")})`);
          const ored = test(list.map((item) => `f == ${item}`).join(" or "));
          for (const v of values) expect(inList({ f: v }), JSON.stringify({ list, v })).toBe(ored({ f: v }));
        },
      ),
      { numRuns: 300 },
    );
  });
});
