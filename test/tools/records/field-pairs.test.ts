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

/**
 * A second field moved by a shift (s40 N570: "created at most 24 hours before joining" could not be said). Invariant,
 * over generated times, numbers, shifts and operators: `a <op> b ± n<unit>` holds exactly when the test's own
 * comparison of a with b moved by the span does; a shift with a unit compares times only, one without numbers only.
 */
describe("two fields compared with a shift", () => {
  const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
  const SIGNS = {
    "==": (c: number) => c === 0,
    "<": (c: number) => c < 0,
    "<=": (c: number) => c <= 0,
    ">": (c: number) => c > 0,
    ">=": (c: number) => c >= 0,
  } as const;

  it("moves a time by its span and a number by its amount (property)", () => {
    const instant = fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2026, 11, 31) });
    fc.assert(
      fc.property(
        instant,
        fc.integer({ min: -30 * 86_400_000, max: 30 * 86_400_000 }),
        fc.integer({ min: -48, max: 48 }),
        fc.constantFrom("m", "h", "d", "w", ""),
        fc.constantFrom("==", "<", "<=", ">", ">="),
        fc.boolean(),
        (b, gap, amount, unit, op, asNumbers) => {
          const shift = `${amount < 0 ? "-" : "+"} ${Math.abs(amount)}${unit}`;
          // Often exactly on the shifted value, so == and the bounds are tried at their edge.
          const a = b + (gap % 3 === 0 ? amount * (unit ? UNIT_MS[unit] : 1) : gap);
          const record = asNumbers
            ? { score: a, priorScore: b }
            : { sentAt: new Date(a).toISOString(), joinedAt: new Date(b).toISOString() };
          const where = asNumbers ? `score ${op} priorScore ${shift}` : `sentAt ${op} joinedAt ${shift}`;
          const sameKind = asNumbers === (unit === "");
          const expected = sameKind && SIGNS[op](a - (b + amount * (unit ? UNIT_MS[unit] : 1)));
          expect(holds(where, record), where).toBe(expected);
          // != is the negation: it holds where == does not, a pair of the wrong kind included.
          if (op === "==") expect(holds(where.replace("==", "!="), record)).toBe(!expected);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("moves a date alone by whole days, compared by its day as without a shift", () => {
    const record = { createdAt: "2026-11-03T23:30:00Z", joinedOn: "2026-11-04" };
    expect(holds("createdAt >= joinedOn - 1d", record)).toBe(true);
    expect(holds("createdAt == joinedOn - 1 day", record)).toBe(true);
    expect(holds("createdAt >= joinedOn", record)).toBe(false);
    expect(holds("createdAt >= joinedOn - 1d", record, "Asia/Kolkata")).toBe(true);
    // In Kolkata the creation falls on 4 November: the same day as the joining, not the day before.
    expect(holds("createdAt == joinedOn - 1d", record, "Asia/Kolkata")).toBe(false);
  });

  it("print and parse back to the same tree (property), a sign glued to the number read as one", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1000, max: 1000 }),
        fc.constantFrom("m", "h", "d", "w", " hours", " days", ""),
        fc.constantFrom("==", "!=", "<", ">="),
        (amount, unit, op) => {
          const where = `updatedAt ${op} joined.activityDate ${amount < 0 ? "-" : "+"} ${Math.abs(amount)}${unit}`;
          const tree = parseExpression(where, at, RECORDS_DIALECT);
          expect(parseExpression(printExpression(tree), at, RECORDS_DIALECT)).toEqual(tree);
        },
      ),
      { numRuns: 200 },
    );
    expect(parseExpression("a_b > createdAt -24h", at, RECORDS_DIALECT)).toEqual(
      parseExpression("a_b > createdAt - 24 hours", at, RECORDS_DIALECT),
    );
  });

  it("refuses a sign with no number after it, naming the form", () => {
    expect(() => parseExpression("updatedAt > createdAt +", at, RECORDS_DIALECT)).toThrow(
      /expected a number after createdAt \+: e\.g\. createdAt - 24h, \+ 7d, \+ 10 at position 24/,
    );
    expect(() => parseExpression("updatedAt > createdAt - -3h", at, RECORDS_DIALECT)).toThrow(
      /expected a number after createdAt -/,
    );
    expect(() => parseExpression('updatedAt > createdAt + "1d"', at, RECORDS_DIALECT)).toThrow(
      /expected a number after createdAt \+/,
    );
  });
});
