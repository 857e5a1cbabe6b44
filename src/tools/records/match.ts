import type { Condition, Expression, Literal } from "../filter/ast.js";
import { fieldReader, isEmpty, numberOf, textOf, timeOf } from "./values.js";

/**
 * A `where` expression (the records dialect of tools/filter/parser.ts) as a test of one record. Text
 * comparisons ignore case, as GA's filters do by default; a number compares with a value that is a number or
 * a numeric text; a quoted date compares with a value that is a date or datetime; an empty value (null,
 * missing, "") matches only `is empty` (and `!=`, `not`).
 */
export type RecordTest = (record: Readonly<Record<string, unknown>>) => boolean;

export function recordTest(expression: Expression): RecordTest {
  switch (expression.kind) {
    case "and": {
      const tests = expression.of.map(recordTest);
      return (record) => tests.every((test) => test(record));
    }
    case "or": {
      const tests = expression.of.map(recordTest);
      return (record) => tests.some((test) => test(record));
    }
    case "not": {
      const test = recordTest(expression.of);
      return (record) => !test(record);
    }
    default: {
      const test = valueTest(expression);
      const read = fieldReader(expression.field);
      return (record) => test(read(record));
    }
  }
}

type ValueTest = (value: unknown) => boolean;

function valueTest(condition: Condition): ValueTest {
  switch (condition.kind) {
    case "compare":
      return condition.op === "eq" ? equals(condition.value) : ordered(condition.op, condition.value);
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
    case "in": {
      const tests = condition.values.map(equals);
      return (value) => tests.some((test) => test(value));
    }
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

function equals(literal: Literal): ValueTest {
  if (literal.kind === "number") {
    const wanted = literal.value;
    return (value) => numberOf(value) === wanted;
  }
  const wanted = literal.value.toLowerCase();
  if (wanted === "") return isEmpty;
  return (value) => !isEmpty(value) && textOf(value).toLowerCase() === wanted;
}

const SIGNS = {
  lt: (c: number) => c < 0,
  le: (c: number) => c <= 0,
  gt: (c: number) => c > 0,
  ge: (c: number) => c >= 0,
} as const;

/** `<`, `<=`, `>`, `>=`: numbers as numbers, a quoted date as a time, other quoted text as text (case ignored). */
function ordered(op: keyof typeof SIGNS, literal: Literal): ValueTest {
  const holds = SIGNS[op];
  const number = literal.kind === "number" ? literal.value : numberOf(literal.value);
  if (number !== undefined) {
    return (value) => {
      const given = numberOf(value);
      return given !== undefined && holds(given - number);
    };
  }
  const text = literal.kind === "text" ? literal.value : literal.text;
  const time = timeOf(text);
  if (time !== undefined) {
    return (value) => {
      const given = timeOf(value);
      return given !== undefined && holds(given - time);
    };
  }
  const lower = text.toLowerCase();
  return (value) => {
    if (isEmpty(value)) return false;
    const given = textOf(value).toLowerCase();
    return holds(given < lower ? -1 : given > lower ? 1 : 0);
  };
}
