/**
 * A report's values as a marketer reads them (newcomer trial 2026-12-02-s5, findings 4 and 6): a change
 * between two periods with its sign, a % and an arrow ("+0.45 % ▲", "−2.48 % ▼", never "0.4507"), and a
 * duration as a clock (57.59 s reads 0:58, 4,210 s 1:10:10), money as GA's own reports show it, with its
 * currency's symbol and minor units ("$1,323.00": trial s8, finding 7). Only the page's cells: the CSV and
 * JSON downloads are the server's files and keep GA's raw numbers (seconds, a change in % as a plain
 * number, revenue without a symbol).
 */

/**
 * GA's types of a metric that hold a time (metadata's `type`, MetricType:
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/MetricType), as seconds per unit.
 */
const SECONDS_PER: Readonly<Record<string, number>> = {
  TYPE_MILLISECONDS: 0.001,
  TYPE_SECONDS: 1,
  TYPE_MINUTES: 60,
  TYPE_HOURS: 3600,
};

/** apiName → GA's metric type ("TYPE_SECONDS"), from the property's metadata. */
export type MetricTypes = Readonly<Record<string, string>>;

/** What a report column holds: a metric's value (or a period's, `sessions[Nov]`), its change, its change in %. */
export function columnPart(column: string): { metric: string; part: "value" | "change" | "percent" } {
  const change = /^(.+)_change(_pct)?$/.exec(column);
  if (change) return { metric: change[1] as string, part: change[2] ? "percent" : "change" };
  const ranged = /^(.+)\[.+\]$/.exec(column);
  return { metric: ranged ? (ranged[1] as string) : column, part: "value" };
}

// The minus sign, not a hyphen: "−2.5 %" (Unicode's U+2212, as typeset numbers write it).
const minus = (text: string) => text.replace("-", "\u2212");

/** "+0.45 % ▲", "−2.48 % ▼", "0.0 %": the sign and the word-free arrow both say the direction. */
export function changePercent(value: number, locale?: string): string {
  const number = new Intl.NumberFormat(locale, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 2,
    signDisplay: "exceptZero",
  }).format(value);
  // A change that rounds to 0.0 % has no direction to show.
  const arrow = !/[1-9]/.test(number) ? "" : value > 0 ? " ▲" : " ▼";
  return `${minus(number)} %${arrow}`;
}

/** Seconds as a clock: m:ss under an hour, h:mm:ss from one (whole seconds, rounded). */
export function clock(seconds: number): string {
  const whole = Math.round(Math.abs(seconds));
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const two = (n: number) => String(n).padStart(2, "0");
  const time = h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
  return seconds < 0 && whole > 0 ? `\u2212${time}` : time;
}

/** A metric value in seconds when GA types it as a time, else undefined. */
export function asSeconds(type: string | undefined, value: number): number | undefined {
  const per = type ? SECONDS_PER[type] : undefined;
  return per === undefined ? undefined : value * per;
}

/**
 * The classes of a change column's cell that moved, else undefined: its direction ("up", "down") and
 * whether that is good news ("better", "worse"), which the page colours. A rise is better unless the
 * service says a fall of the metric is (`lowerIsBetter`, which the caller gets from the service's room).
 */
export function changeTone(
  column: string,
  value: unknown,
  lowerIsBetter: (metric: string) => boolean = () => false,
): string | undefined {
  const { metric, part } = columnPart(column);
  if (typeof value !== "number" || part === "value") return undefined;
  // As the cell reads it: a change in % that rounds to 0.0 % has not moved.
  const moved = part === "percent" ? Math.round(value * 100) : value;
  if (moved === 0) return undefined;
  const better = moved > 0 !== lowerIsBetter(metric);
  return `${moved > 0 ? "up" : "down"} ${better ? "better" : "worse"}`;
}

/**
 * An amount in `currency` (an ISO 4217 code: the report's metadata.currencyCode) with its symbol and as
 * many decimals as the currency has minor units, the default of Intl.NumberFormat's currency style
 * (https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Intl/NumberFormat/NumberFormat#minimumfractiondigits):
 * "$1,323.00", "¥1,323", "BHD 1.500"; a change signed, "+$12.50", "−$3.00".
 */
export function money(value: number, currency: string, locale?: string, signed = false): string {
  const format = new Intl.NumberFormat(locale, {
    style: "currency",
    currency,
    signDisplay: signed ? "exceptZero" : "auto",
  });
  return minus(format.format(value));
}

/** Whether GA types the metric as money (metadata's TYPE_CURRENCY). */
const isMoney = (types: MetricTypes, metric: string) => types[metric] === "TYPE_CURRENCY";

/**
 * A report's number as the page shows it: a change in % as changePercent, a time as a clock (its change
 * signed), money in the report's `currency` (its change signed), any other change signed, the rest by
 * `plain` (the reader's separators).
 */
export function reportValue(
  column: string,
  value: number,
  types: MetricTypes,
  plain: (n: number) => string,
  locale?: string,
  currency?: string,
): string {
  const { metric, part } = columnPart(column);
  if (part === "percent") return changePercent(value, locale);
  if (currency && isMoney(types, metric)) return money(value, currency, locale, part === "change");
  const seconds = asSeconds(types[metric], value);
  const sign = part === "change" && value > 0 ? "+" : "";
  if (seconds !== undefined) return `${sign}${clock(seconds)}`;
  return `${sign}${minus(plain(value))}`;
}
