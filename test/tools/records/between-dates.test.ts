import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../../src/errors.js";
import { GA_DIALECT, parseExpression, RECORDS_DIALECT } from "../../../src/tools/filter/parser.js";
import { recordTest } from "../../../src/tools/records/match.js";

/**
 * `between` with two quoted dates on records (trial s9, third run, N46: "activityDate between "2026-11-19" and
 * "2026-11-20"" was refused, "expected a number"): the same records as `>=` the first and `<=` the second, in
 * the call's zone; GA's filter, whose BetweenFilter takes numbers, still refuses it.
 */
const AT = { field: "where", hint: "the hint" };
const test = (source: string, zone?: string) =>
  recordTest(parseExpression(source, AT, RECORDS_DIALECT), zone);
const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe("between two quoted dates", () => {
  it("keeps the records >= the first and <= the second, in any zone", () => {
    const base = Date.UTC(2026, 10, 1);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 60 * DAY }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 10 }),
        fc.constantFrom(undefined, "America/New_York", "Asia/Tokyo"),
        (offsets, start, length, zone) => {
          const [from, to] = [day(base + start * DAY), day(base + (start + length) * DAY)];
          const records = offsets.map((offset) => ({ activityDate: new Date(base + offset).toISOString() }));
          const between = test(`activityDate between "${from}" and "${to}"`, zone);
          const bounds = test(`activityDate >= "${from}" and activityDate <= "${to}"`, zone);
          expect(records.map(between)).toEqual(records.map(bounds));
        },
      ),
    );
  });

  it("keeps numbers as numbers, refuses a number beside a quoted bound, and GA's filter still wants numbers", () => {
    expect([{ s: 5 }, { s: 11 }].map(test("s between 1 and 10"))).toEqual([true, false]);
    expect(() => test('activityDate between "2026-11-01" and 5')).toThrow(/second bound/);
    expect(() => parseExpression('date between "2026-11-01" and "2026-11-02"', AT, GA_DIALECT)).toThrow(
      ValidationError,
    );
  });
});
