import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseExpression, RECORDS_DIALECT } from "../../../src/tools/filter/parser.js";
import { printExpression } from "../../../src/tools/filter/print.js";
import { recordTest } from "../../../src/tools/records/match.js";

/**
 * Two fields compared (records/match.ts fieldsTest) read a value as the same value quoted would be read (review s48,
 * 4: a date alone beside a datetime was its midnight, not its whole day as a quoted date is). Invariant, over
 * generated datetimes, dates, operators and zones: `sentAt <op> webinarDate` holds for a record exactly when `sentAt <op> "<webinarDate's value>"`.
 */
const at = { field: "where", hint: "" };
const holds = (where: string, record: Record<string, unknown>, zone?: string) =>
  recordTest(parseExpression(where, at, RECORDS_DIALECT), zone)(record);

describe("two fields compared", () => {
  it("read a date alone as its whole day, as a quoted date is (property)", () => {
    const day = fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2026, 11, 31) });
    fc.assert(
      fc.property(
        day,
        fc.integer({ min: -3 * 86_400_000, max: 3 * 86_400_000 }),
        fc.constantFrom("==", "!=", "<", "<=", ">", ">="),
        fc.constantFrom(undefined, "Asia/Kolkata", "America/New_York", "Pacific/Auckland"),
        fc.boolean(),
        (d, offset, op, zone, withOffset) => {
          const date = new Date(d).toISOString().slice(0, 10);
          const iso = new Date(d - (d % 86_400_000) + offset).toISOString();
          const time = withOffset ? iso : iso.replace(/\.\d{3}Z$/, "");
          const record = { sentAt: time, webinarDate: date };
          expect(holds(`sentAt ${op} webinarDate`, record, zone)).toBe(
            holds(`sentAt ${op} "${date}"`, record, zone),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("two fields compared, printed", () => {
  it("parse back to the same tree, a name with spaces written after its head (review s48, 2)", () => {
    for (const where of [
      'joined."Visit Webpage" > joined."Fill Out Form"',
      'attributes."Old Value" != attributes."New Value"',
      "updatedAt >= createdAt and not id < leadScore",
    ]) {
      const tree = parseExpression(where, at, RECORDS_DIALECT);
      expect(parseExpression(printExpression(tree), at, RECORDS_DIALECT)).toEqual(tree);
    }
  });
});
