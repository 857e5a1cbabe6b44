import { ValidationError } from "../../errors.js";
import type { Condition, Expression, Literal, Shift } from "../filter/ast.js";
import { printExpression } from "../filter/print.js";
import { shiftSpan, UNIT_MS } from "../filter/shift.js";
import { instantOf, wallAt } from "../zone-clock.js";
import { valuesAt } from "./sum.js";
import {
  DATE_ALONE,
  fieldReader,
  innerObject,
  isEmpty,
  isObject,
  itemListOf,
  itemView,
  numberOf,
  readOn,
  textOf,
  timeOf,
} from "./values.js";

/**
 * A `where` expression (the records dialect of tools/filter/parser.ts) as a test of one record. Text
 * comparisons ignore case, as GA's filters do by default; a number compares with a value that is a number or
 * a numeric text; a quoted date compares with a value that is a date or datetime; an empty value (null,
 * missing, "") matches only `is empty` (and `!=`, `not`). With a time zone (the call's time_zone), a date
 * or a time without an offset, quoted or in a record, is read on that zone's clock, and a quoted date alone
 * is that whole day there: `<= "2026-11-30"` holds until the zone's midnight after it, as an export's endAt.
 */
export type RecordTest = (record: Readonly<Record<string, unknown>>) => boolean;

export function recordTest(
  expression: Expression,
  zone?: string,
  input = "where",
  /** Under an odd number of `not`s: a refusal's fix is written with it (review s52, 1: != became ==). */
  negated = false,
): RecordTest {
  switch (expression.kind) {
    case "and": {
      const tests = expression.of.map((of) => recordTest(of, zone, input, negated));
      return (record) => tests.every((test) => test(record));
    }
    case "or": {
      const tests = expression.of.map((of) => recordTest(of, zone, input, negated));
      return (record) => tests.some((test) => test(record));
    }
    case "not": {
      const test = recordTest(expression.of, zone, input, !negated);
      return (record) => !test(record);
    }
    case "fields":
      return fieldsTest(expression, zone, input, negated);
    default: {
      const test = valueTest(expression, zone);
      const read = fieldReader(expression.field);
      const dotted = expression.field.includes(".");
      return (given) => {
        const record = readOn(given, expression.field);
        const value = read(record);
        // A path into a list's objects ("costs.startDate" of costs: [{startDate}]) holds when one item's does.
        if (value !== undefined || !dotted) return test(value);
        const items = valuesAt(record, expression.field);
        return items.length > 0 ? items.some(test) : test(value);
      };
    }
  }
}

/**
 * A where that names a path inside a list of objects at the record's top level ("costs.startDate" of costs:
 * [{startDate, cost, note}]) holds for a record when it holds with one item as the list's only item: each
 * item is tested whole, so `costs.startDate >= "2026-01-01" and costs.note == "Sponsorship"` needs one item
 * with both (trial s14, N107). A name/value list (an activity's attributes) is read as one object, not so,
 * unless a path reads a key of its items (a token's `value`: review s26, finding 5).
 */
export function itemWise(test: RecordTest, fields: readonly string[]): RecordTest {
  const heads = [...new Set(fields.filter((f) => f.includes(".")).map((f) => f.split(".")[0] as string))];
  if (heads.length === 0) return test;
  return (record) => {
    // A name/value list too, when a path into it reads a key of its items (tokens.value: review s26, finding
    // 5); a value by its name is then read on the whole record (itemView: review s28, finding 1).
    const byItem = (h: string) => {
      const under = fields.filter((f) => f.startsWith(`${h}.`));
      return !innerObject(record, h) || under.some((f) => itemListOf(record, f) === h);
    };
    const head = heads.find((h) => {
      const list = record[h];
      return Array.isArray(list) && list.length > 0 && list.every(isObject) && byItem(h);
    });
    const list = head === undefined ? undefined : (record[head] as unknown[]);
    if (!head || !list || list.length === 1) return test(record);
    return list.some((item) => test(itemView(record, head, item)));
  };
}

type ValueTest = (value: unknown) => boolean;
type FieldsCondition = Extract<Condition, { kind: "fields" }>;

/** A field's values on a record: its own, or through a list's objects each item's (a path into costs: [{…}]). */
function valuesOf(field: string): (record: Readonly<Record<string, unknown>>) => unknown[] {
  const read = fieldReader(field);
  const dotted = field.includes(".");
  return (given) => {
    const record = readOn(given, field);
    const value = read(record);
    if (value !== undefined || !dotted) return [value];
    const items = valuesAt(record, field);
    return items.length > 0 ? items : [value];
  };
}

const isDay = (value: unknown) => typeof value === "string" && DATE_ALONE.test(value);

/** The day an instant falls on, on the zone's clock (else UTC), as that day's midnight UTC. */
const dayOf = (instant: number, zone: string | undefined): number => {
  const wall = zone ? wallAt(zone, instant) : instant;
  return wall - (((wall % 86_400_000) + 86_400_000) % 86_400_000);
};

/**
 * Two fields of one record compared: as numbers when both are numbers (or numeric text), as times when both are
 * dates or datetimes (in the zone when they carry no offset; a date alone is its whole day, so a datetime compares
 * with it by its day on the zone's clock), else as text with case ignored. An empty side holds
 * for nothing (and so `!=` holds), as an empty value beside a quoted one.
 */
function fieldsTest(
  condition: FieldsCondition,
  zone: string | undefined,
  input: string,
  negated: boolean,
): RecordTest {
  const left = valuesOf(condition.field);
  const right = valuesOf(condition.other);
  const holds = condition.op === "eq" ? (c: number) => c === 0 : SIGNS[condition.op];
  const { shift } = condition;
  const compared = shift
    ? shifted({ ...condition, shift }, zone, input, negated)
    : unshifted(condition, zone, input);
  return (record) => {
    const bs = right(record);
    return left(record).some((a) =>
      bs.some((b) => {
        const c = compared(a, b);
        return c !== undefined && holds(c);
      }),
    );
  };
}

/**
 * Two values compared as they are: numbers, else times, else text ignoring case; an empty side is no comparison. A
 * number beside a date is refused: as text, "52" > "2025-08-18" held (review s48, 11: `leadScore > createdAt` kept
 * 889 of 1,250, meaning nothing).
 */
function unshifted(
  condition: FieldsCondition,
  zone: string | undefined,
  input: string,
): (a: unknown, b: unknown) => number | undefined {
  return (a, b) => {
    if (isEmpty(a) || isEmpty(b)) return undefined;
    const [x, y] = [numberOf(a), numberOf(b)];
    if (x !== undefined && y !== undefined) return x - y;
    const [s, t] = [timeOf(a, zone), timeOf(b, zone)];
    if ((x !== undefined && t !== undefined) || (s !== undefined && y !== undefined))
      throw new ValidationError(input, `${pairWords(condition, a, b, zone)}, which do not compare.`, {
        hint: "Compare two fields of one kind: both numbers, or both dates.",
      });
    // A date alone is its whole day, as a quoted one is (review s48, 4): a datetime compares by its day then.
    if (s !== undefined && t !== undefined)
      return isDay(a) || isDay(b) ? dayOf(s, zone) - dayOf(t, zone) : s - t;
    const [p, q] = [textOf(a).toLowerCase(), textOf(b).toLowerCase()];
    return p < q ? -1 : p > q ? 1 : 0;
  };
}

/** The fix of a pair no shift moves: two texts too (review s52, 9: "of one kind" they were). */
const KIND_FIX =
  "A shift moves numbers or dates: compare a number field with a number field, or a date with a date, or text without a shift.";

/** The two values of a pair refused, each by its kind: "leadScore holds a number (52) and createdAt a date and time (…)". */
const pairWords = (condition: FieldsCondition, a: unknown, b: unknown, zone: string | undefined) =>
  `${condition.field} holds ${kindOf(a, zone)} (${JSON.stringify(a)}) and ${condition.other} ${kindOf(b, zone)} (${JSON.stringify(b)})`;

/** What a value is to a shift: a number, a date alone, a date and time, or else text. */
function kindOf(value: unknown, zone: string | undefined): string {
  if (numberOf(value) !== undefined) return "a number";
  if (timeOf(value, zone) !== undefined) return isDay(value) ? "a date alone" : "a date and time";
  return "a text";
}

/**
 * Two values compared with a shift on the second: with a unit both must be times (the second moved by the span), without
 * one both must be numbers (their sum to 15 digits: 0.2 + 0.1 is 0.3). A pair of another kind is refused, naming the
 * fix (review s51, 1: `- 24` on dates held for nothing, and `!=` for every record, silently). A date alone moves by
 * whole days on the calendar (review s51, 2 and 3: a span of hours, or a day across a change of clock, missed its day),
 * and compares by its day, as without a shift.
 */
function shifted(
  condition: FieldsCondition & { shift: Shift },
  zone: string | undefined,
  input: string,
  negated: boolean,
): (a: unknown, b: unknown) => number | undefined {
  const { shift } = condition;
  const span = shiftSpan(shift);
  const refuse = (a: unknown, b: unknown, fix: string): never => {
    throw new ValidationError(
      input,
      `${pairWords(condition, a, b, zone)}: a shift ${shift.unit ? "with a unit moves times" : "without a unit moves numbers"}.`,
      { hint: fix },
    );
  };
  const written = (unit: Shift["unit"], text = shift.text) => {
    const moved = { ...condition, shift: unit ? { ...shift, text, unit } : { amount: shift.amount, text } };
    return printExpression(negated ? { kind: "not", of: moved } : moved);
  };
  return (a, b) => {
    if (isEmpty(a) || isEmpty(b)) return undefined;
    const [x, y] = [numberOf(a), numberOf(b)];
    const [s, t] = [timeOf(a, zone), timeOf(b, zone)];
    if (!shift.unit) {
      // Both sides to 15 digits: 0.2 + 0.1 is 0.3, and 1/3 is 1/3 + 0 (review s52, 4).
      if (x !== undefined && y !== undefined)
        return Number(x.toPrecision(15)) - Number((y + span).toPrecision(15));
      return s !== undefined && t !== undefined
        ? refuse(a, b, `Give the shift a unit (m, h, d, w), e.g. ${written("hour")}.`)
        : refuse(a, b, KIND_FIX);
    }
    if (s === undefined || t === undefined || x !== undefined || y !== undefined)
      return x !== undefined && y !== undefined
        ? refuse(a, b, `Leave the unit out to move a number, e.g. ${written(undefined)}.`)
        : refuse(a, b, KIND_FIX);
    if (isDay(b)) {
      if (span % UNIT_MS.day !== 0) {
        const days = String(Math.max(1, Math.round(Math.abs(span) / UNIT_MS.day)));
        refuse(a, b, `A date alone moves by whole days: e.g. ${written("day", days)}.`);
      }
      return dayOf(s, zone) - (dayOf(t, zone) + span);
    }
    return isDay(a) ? dayOf(s, zone) - dayOf(t + span, zone) : s - (t + span);
  };
}

function valueTest(condition: Condition, zone: string | undefined): ValueTest {
  switch (condition.kind) {
    case "compare":
      return condition.op === "eq"
        ? equals(condition.value, zone)
        : ordered(condition.op, condition.value, zone);
    case "match": {
      const wanted = condition.value.toLowerCase();
      const op = condition.op;
      if (op !== "contains" && op !== "begins_with" && op !== "ends_with") {
        throw new TypeError("regular expressions are not evaluated on records");
      }
      return (value) => {
        if (isEmpty(value)) return false;
        const text = textOf(value).toLowerCase();
        return op === "contains"
          ? text.includes(wanted)
          : op === "begins_with"
            ? text.startsWith(wanted)
            : text.endsWith(wanted);
      };
    }
    case "in":
      return oneOf(condition.values, zone);
    case "between": {
      // The parser reads both bounds as numbers.
      const from = numberOf(condition.from.value) ?? Number.NaN;
      const to = numberOf(condition.to.value) ?? Number.NaN;
      return (value) => {
        const number = numberOf(value);
        return number !== undefined && number >= from && number <= to;
      };
    }
    default:
      return isEmpty;
  }
}

/**
 * `in (…)`: as any of its values' `==`, with numbers and plain text looked up in sets (a list from a kept result holds
 * thousands of ids: kept-lists.ts); a date alone or an empty text keeps its own test.
 */
function oneOf(literals: readonly Literal[], zone?: string): ValueTest {
  const numbers = new Set<number>();
  const texts = new Set<string>();
  const others: ValueTest[] = [];
  for (const literal of literals) {
    if (literal.kind === "number") numbers.add(literal.value);
    else if (literal.value === "" || DATE_ALONE.test(literal.value)) others.push(equals(literal, zone));
    else texts.add(literal.value.toLowerCase());
  }
  return (value) => {
    if (numbers.size > 0) {
      const number = numberOf(value);
      if (number !== undefined && numbers.has(number)) return true;
    }
    if (texts.size > 0 && !isEmpty(value) && texts.has(textOf(value).toLowerCase())) return true;
    return others.some((test) => test(value));
  };
}

function equals(literal: Literal, zone?: string): ValueTest {
  if (literal.kind === "number") {
    const wanted = literal.value;
    return (value) => numberOf(value) === wanted;
  }
  const wanted = literal.value.toLowerCase();
  if (wanted === "") return isEmpty;
  const same = (value: unknown) => !isEmpty(value) && textOf(value).toLowerCase() === wanted;
  if (!DATE_ALONE.test(literal.value)) return same;
  // A date alone equals any time on that day (in the zone, else UTC), as <= and >= read it.
  const start = instantOf(zone ?? "UTC", Date.parse(`${literal.value}T00:00:00Z`));
  const end = instantOf(zone ?? "UTC", Date.parse(`${literal.value}T00:00:00Z`) + 86_400_000);
  return (value) => {
    const given = timeOf(value, zone);
    return given === undefined ? same(value) : given >= start && given < end;
  };
}

const SIGNS = {
  lt: (c: number) => c < 0,
  le: (c: number) => c <= 0,
  gt: (c: number) => c > 0,
  ge: (c: number) => c >= 0,
} as const;

/** `<`, `<=`, `>`, `>=`: numbers as numbers, a quoted date as a time, other quoted text as text (case ignored). */
function ordered(op: keyof typeof SIGNS, literal: Literal, zone: string | undefined): ValueTest {
  const holds = SIGNS[op];
  const number = literal.kind === "number" ? literal.value : numberOf(literal.value);
  if (number !== undefined) {
    return (value) => {
      const given = numberOf(value);
      return given !== undefined && holds(given - number);
    };
  }
  const text = literal.kind === "text" ? literal.value : literal.text;
  const time = timeOf(text, zone);
  if (time !== undefined) {
    // A date alone is its whole day, in the zone or else in UTC, as an export's date filter without time_zone
    // (date-bounds.ts): after it (> and <=) starts at the next day's midnight (review s20, finding 1: without
    // time_zone, <= "2026-12-03" stopped at its first instant beside an export that read it whole).
    const after = DATE_ALONE.test(text) && (op === "gt" || op === "le");
    const bound = after ? instantOf(zone ?? "UTC", Date.parse(`${text}T00:00:00Z`) + 86_400_000) : time;
    const test = after ? (op === "gt" ? SIGNS.ge : SIGNS.lt) : holds;
    return (value) => {
      const given = timeOf(value, zone);
      return given !== undefined && test(given - bound);
    };
  }
  const lower = text.toLowerCase();
  return (value) => {
    if (isEmpty(value)) return false;
    const given = textOf(value).toLowerCase();
    return holds(given < lower ? -1 : given > lower ? 1 : 0);
  };
}
