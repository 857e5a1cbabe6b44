/**
 * Which days a report's dimension filter leaves in, for a mean a day (report-per-day.ts): a filter on a calendar
 * dimension (dayOfWeekName == "Saturday", month == "09") keeps only its days, so Saturdays' sessions a day are
 * divided by the Saturdays, not by every day (review s24, finding 3). The filter is GA's FilterExpression as sent
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/FilterExpression), read with
 * three values: a condition on a calendar dimension is true or false on a day, any other condition unknown (it
 * holds for some rows and not others). A day is left out only when the filter is false on it whatever the unknown
 * conditions are: with `country == "France" or dayOfWeekName == "Saturday"` a Monday stays (France's rows count).
 */
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
      try {
        const flags = filter.caseSensitive ? "" : "i";
        const source =
          filter.matchType === "FULL_REGEXP" ? `^(?:${filter.value ?? ""})$` : (filter.value ?? "");
        return new RegExp(source, flags).test(value);
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

/** A condition on a day: true or false when its field is a calendar dimension, else unknown. */
function condition(filter: Filter, ms: number): Tri {
  const of = filter.fieldName === undefined ? undefined : DAY_VALUES[filter.fieldName];
  if (!of) return undefined;
  const value = of(ms);
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

function evaluate(expression: Expression, ms: number): Tri {
  if (expression.andGroup || expression.orGroup) {
    const and = expression.andGroup !== undefined;
    const parts = ((and ? expression.andGroup : expression.orGroup)?.expressions ?? []).map((part) =>
      evaluate(part, ms),
    );
    if (parts.includes(!and)) return !and;
    return parts.includes(undefined) ? undefined : and;
  }
  if (expression.notExpression) {
    const inner = evaluate(expression.notExpression, ms);
    return inner === undefined ? undefined : !inner;
  }
  return expression.filter ? condition(expression.filter, ms) : undefined;
}

/** The days (UTC midnight, ms) the dimension filter leaves in: all when there is none. */
export function dayFilter(dimensionFilter: unknown): (ms: number) => boolean {
  if (!dimensionFilter || typeof dimensionFilter !== "object") return () => true;
  return (ms) => evaluate(dimensionFilter as Expression, ms) !== false;
}
