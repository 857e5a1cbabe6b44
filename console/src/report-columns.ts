/**
 * A report's columns as a person reads them: each field by the name Google Analytics shows for it
 * ("Sessions" for `sessions`, from the property's metadata), the columns a two-range report adds
 * (`sessions[last 28 days]`, `sessions_change`, `sessions_change_pct`: src/tools/ga/report-compare.ts) and
 * a funnel's (`completion_rate_pct`: src/tools/ga/funnel.ts) in words; and its numbers with the reader's
 * thousands separators (the downloads keep the raw numbers).
 */
import { timeValue } from "../../src/charts/model.js";
import { eventWords } from "../../src/tools/ga/event-words.js";
import { reportNumbers } from "./report-numbers.js";
import { type MetricTypes, reportValue } from "./report-values.js";

export type UiNames = Readonly<Record<string, string>>;

/** "completion_rate_pct" → "Completion rate (%)", "step_number" → "Step number". */
function words(column: string): string {
  const pct = column.endsWith("_pct");
  const spaced = (pct ? column.slice(0, -4) : column)
    .replace(/_/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase();
  return `${spaced.charAt(0).toUpperCase()}${spaced.slice(1)}${pct ? " (%)" : ""}`;
}

/**
 * A funnel's columns (src/tools/ga/funnel.ts) as a marketer reads them: GA's completion rate of a step is
 * the share that went on to the next one, not a rate of completing the funnel (trial s5, finding 5).
 */
const FUNNEL_COLUMNS: UiNames = {
  completion_rate_pct: "Went on to next step (%)",
  abandonments: "Dropped off",
  abandonment_rate_pct: "Dropped off (%)",
};

/** The columns that hold an event's name: a funnel's step and the next action after it. */
const EVENT_COLUMNS = new Set(["step", "next_eventName"]);

/**
 * The title of a report's column: its field's UI name, or the words of a column the step adds. A money
 * metric's columns say their currency (`currencyOf`: the report's code for a metric GA types as money),
 * "Purchase revenue (USD)", as do the CSV's headings, which are the table's (trial s7, finding 9); a merged
 * period's column names its period in words (`period`: "sessions[last7days]" → "Sessions (Last 7 days
 * (25 Nov – 1 Dec 2026))" reads worse than "Sessions, Last 7 days (25 Nov – 1 Dec 2026)").
 */
export function columnTitle(
  column: string,
  ui: UiNames,
  currencyOf: (metric: string) => string | undefined = () => undefined,
  period: (label: string) => string = (l) => l,
): string {
  const money = currencyOf(column);
  const known = ui[column] ?? FUNNEL_COLUMNS[column];
  if (known) return money ? `${known} (${money})` : known;
  if (column === "dateRange") return "Period";
  const ranged = /^(.+)\[(.+)\]$/.exec(column);
  if (ranged) {
    const [, base, range] = ranged as unknown as [string, string, string];
    const code = currencyOf(base);
    const words = period(range);
    const field = columnTitle(base, ui);
    if (words === range) return `${field} (${range}${code ? `, ${code}` : ""})`;
    return `${field}${code ? ` (${code})` : ""}, ${words}`;
  }
  const change = /^(.+)_change(_pct)?$/.exec(column);
  if (change && ui[change[1] as string]) {
    const code = change[2] ? undefined : currencyOf(change[1] as string);
    return `${ui[change[1] as string]} change${change[2] ? " (%)" : code ? ` (${code})` : ""}`;
  }
  const next = /^next_(.+)$/.exec(column);
  if (next) return `Next ${columnTitle(next[1] as string, ui).toLowerCase()}`;
  return words(column);
}

/**
 * A report's cell as people read it: a GA time value as a date, a number with the reader's locale's
 * separators (https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Intl/NumberFormat),
 * anything else as it is. A number keeps 2 decimals or 4 significant digits, whichever is more precise
 * (roundingPriority "morePrecision"), as the step rounds a change: a rate's change of -0.0046 reads -0.0046,
 * not -0, and 12,335 is not cut to 12,340. A change reads signed, in % with an arrow, a time as a clock and
 * money in the report's `currency` ("$1,323.00", report-values.ts).
 */
export function reportCell(
  locale?: string,
  types: MetricTypes = {},
  currency?: string,
): (column: string, value: unknown) => unknown {
  const format = reportNumbers(locale);
  return (column, value) =>
    typeof value === "number"
      ? reportValue(column, value, types, (n) => format.format(n), locale, currency)
      : typeof value === "string" && EVENT_COLUMNS.has(column)
        ? eventWords(value)
        : timeValue(column, value);
}
