/**
 * Which days a report's dimension filter leaves in, for a mean a day (report-per-day.ts): a filter on a calendar
 * dimension (dayOfWeekName == "Saturday", month == "09") keeps only its days, so Saturdays' sessions a day are
 * divided by the Saturdays, not by every day (review s24, finding 3). The filter is GA's FilterExpression as sent
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/FilterExpression), read with
 * three values: a condition on a calendar dimension is true or false on a day, any other condition unknown (it
 * holds for some rows and not others). A day is left out only when the filter is false on it whatever the unknown
 * conditions are: with `country == "France" or dayOfWeekName == "Saturday"` a Monday stays (France's rows count).
 * A row's own dimensions are known for its days (with `deviceCategory == "tablet" or dayOfWeekName == "Sunday"`,
 * a mobile row counts the Sundays only: review s25, finding 3). A condition on a calendar dimension this cannot
 * evaluate (a regular expression JavaScript cannot read, a day counted from the range's start: nthDay) is refused
 * before anything is sent, not taken as unknown.
 */
import { ValidationError } from "../../errors.js";
import { DAY_VALUES } from "./report-calendar.js";

type Tri = boolean | undefined;

interface Filter {
  fieldName?: string;
  stringFilter?: { matchType?: string; value?: string; caseSensitive?: boolean };
  inListFilter?: { values?: string[]; caseSensitive?: boolean };
  numericFilter?: { operation?: string; value?: NumericValue };
  betweenFilter?: { fromValue?: NumericValue; toValue?: NumericValue };
  emptyFilter?: object;
}
type NumericValue = { int64Value?: string | number; doubleValue?: number };
interface Expression {
  andGroup?: { expressions?: Expression[] };
  orGroup?: { expressions?: Expression[] };
  notExpression?: Expression;
  filter?: Filter;
}

const numberOf = (value: NumericValue | undefined) =>
  Number(value?.int64Value ?? value?.doubleValue ?? Number.NaN);

/** GA's RE2 pattern as a JavaScript one: a leading (?i), (?s) or (?m) becomes a flag. */
function pattern(filter: NonNullable<Filter["stringFilter"]>): RegExp {
  const flagged = /^\(\?([ims]+)\)/.exec(filter.value ?? "");
  const body = flagged ? (filter.value ?? "").slice(flagged[0].length) : (filter.value ?? "");
  const flags = new Set([...(flagged?.[1] ?? ""), ...(filter.caseSensitive ? "" : "i")]);
  const source = filter.matchType === "FULL_REGEXP" ? `^(?:${body})$` : body;
  return new RegExp(source, [...flags].join(""));
}

function textMatch(filter: NonNullable<Filter["stringFilter"]>, value: string): Tri {
  const fold = (text: string) => (filter.caseSensitive ? text : text.toLowerCase());
  const [have, want] = [fold(value), fold(filter.value ?? "")];
  switch (filter.matchType ?? "EXACT") {
    case "EXACT":
      return have === want;
    case "BEGINS_WITH":
      return have.startsWith(want);
    case "ENDS_WITH":
      return have.endsWith(want);
    case "CONTAINS":
      return have.includes(want);
    case "FULL_REGEXP":
    case "PARTIAL_REGEXP":
      // A calendar dimension's pattern was read before anything was sent (checkDayFilter); one on a row's own
      // dimension that JavaScript cannot read is unknown, as a dimension not in the row is.
      try {
        return pattern(filter).test(value);
      } catch {
        return undefined;
      }
    default:
      return undefined;
  }
}

const COMPARE: Record<string, (a: number, b: number) => boolean> = {
  EQUAL: (a, b) => a === b,
  LESS_THAN: (a, b) => a < b,
  LESS_THAN_OR_EQUAL: (a, b) => a <= b,
  GREATER_THAN: (a, b) => a > b,
  GREATER_THAN_OR_EQUAL: (a, b) => a >= b,
};

/** A condition on a day: true or false when its field is a calendar dimension or the row's, else unknown. */
function condition(filter: Filter, ms: number, known: Readonly<Record<string, string>>): Tri {
  const name = filter.fieldName ?? "";
  const of = DAY_VALUES[name];
  const value = of ? of(ms) : known[name];
  if (value === undefined) return undefined;
  if (filter.stringFilter) return textMatch(filter.stringFilter, value);
  if (filter.inListFilter) {
    const fold = (text: string) => (filter.inListFilter?.caseSensitive ? text : text.toLowerCase());
    return (filter.inListFilter.values ?? []).some((item) => fold(item) === fold(value));
  }
  if (filter.numericFilter) {
    const compare = COMPARE[filter.numericFilter.operation ?? ""];
    return compare ? compare(Number(value), numberOf(filter.numericFilter.value)) : undefined;
  }
  if (filter.betweenFilter) {
    const number = Number(value);
    return (
      number >= numberOf(filter.betweenFilter.fromValue) && number <= numberOf(filter.betweenFilter.toValue)
    );
  }
  if (filter.emptyFilter) return value === "";
  return undefined;
}

function evaluate(expression: Expression, ms: number, known: Readonly<Record<string, string>>): Tri {
  if (expression.andGroup || expression.orGroup) {
    const and = expression.andGroup !== undefined;
    const parts = ((and ? expression.andGroup : expression.orGroup)?.expressions ?? []).map((part) =>
      evaluate(part, ms, known),
    );
    if (parts.includes(!and)) return !and;
    return parts.includes(undefined) ? undefined : and;
  }
  if (expression.notExpression) {
    const inner = evaluate(expression.notExpression, ms, known);
    return inner === undefined ? undefined : !inner;
  }
  return expression.filter ? condition(expression.filter, ms, known) : undefined;
}

/** Dimensions a day does not determine but the range's start or the hour does: their days cannot be told. */
const NOT_BY_DAY = /^(dateHour|dateHourMinute|nth[A-Z][A-Za-z]*)$/;

/** The filter's conditions, each once, at any depth. */
function conditions(expression: Expression): Filter[] {
  const groups = [...(expression.andGroup?.expressions ?? []), ...(expression.orGroup?.expressions ?? [])];
  return [
    ...(expression.filter ? [expression.filter] : []),
    ...(expression.notExpression ? conditions(expression.notExpression) : []),
    ...groups.flatMap(conditions),
  ];
}

/** Refuses, before anything is sent, a filter whose days a mean a day could not tell (review s25, finding 3). */
export function checkDayFilter(dimensionFilter: unknown, perDay: readonly string[]): void {
  if (perDay.length === 0 || !dimensionFilter || typeof dimensionFilter !== "object") return;
  for (const filter of conditions(dimensionFilter as Expression)) {
    const name = filter.fieldName ?? "";
    const hint =
      "Filter on date, day, dayOfWeekName, week, month, yearMonth or year, or ask for the metric without /day.";
    if (NOT_BY_DAY.test(name)) {
      throw new ValidationError(
        "filter",
        `a mean a day (${perDay.join(", ")}) cannot tell which days ${name} keeps.`,
        {
          hint,
        },
      );
    }
    if (!(name in DAY_VALUES) || !filter.stringFilter || !/REGEXP$/.test(filter.stringFilter.matchType ?? ""))
      continue;
    try {
      pattern(filter.stringFilter);
    } catch {
      throw new ValidationError(
        "filter",
        `a mean a day (${perDay.join(", ")}) cannot read the pattern ${JSON.stringify(filter.stringFilter.value)} on ${name}.`,
        {
          hint: 'Write it as a list of values, e.g. dayOfWeekName in ("Saturday", "Sunday"), or without /day.',
        },
      );
    }
  }
}

/** Calendar dimensions whose value names one stretch of time, not one that comes back (dayOfWeekName, month). */
const RISING = new Set(["date", "yearMonth", "yearWeek", "isoYearIsoWeek", "year", "isoYear"]);

/**
 * The filter with only its conditions on rising calendar dimensions (`date >= 20260920`); any other is unknown. The
 * days it keeps are a stretch of the range, as the range's own bounds are: a period it keeps part of is cut
 * (report-change-periods.ts), while `dayOfWeekName == "Monday"` keeps the same part of every week.
 */
export function risingOnly(dimensionFilter: unknown): unknown {
  if (!dimensionFilter || typeof dimensionFilter !== "object") return dimensionFilter;
  const strip = (expression: Expression): Expression => {
    if (expression.filter) return RISING.has(expression.filter.fieldName ?? "") ? expression : {};
    if (expression.notExpression) return { notExpression: strip(expression.notExpression) };
    const group = expression.andGroup ? "andGroup" : expression.orGroup ? "orGroup" : undefined;
    if (!group) return expression;
    return { [group]: { expressions: (expression[group]?.expressions ?? []).map(strip) } };
  };
  return strip(dimensionFilter as Expression);
}

/** The filter on a day: true, false, or unknown (it depends on a condition on another dimension). */
export function dayTruth(dimensionFilter: unknown): (ms: number) => boolean | undefined {
  if (!dimensionFilter || typeof dimensionFilter !== "object") return () => true;
  return (ms) => evaluate(dimensionFilter as Expression, ms, {});
}

/**
 * The days (UTC midnight, ms) the dimension filter leaves in, for a row with the `known` dimension values (none
 * for the totals): all when there is none.
 */
export function dayFilter(
  dimensionFilter: unknown,
  known: Readonly<Record<string, string>> = {},
): (ms: number) => boolean {
  if (!dimensionFilter || typeof dimensionFilter !== "object") return () => true;
  return (ms) => evaluate(dimensionFilter as Expression, ms, known) !== false;
}
