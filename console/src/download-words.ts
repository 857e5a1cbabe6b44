/**
 * Which rows the downloads hold, in words (trial 2026-12-02-s7, finding 16: "(all 1 records)"): a count
 * of one reads "the 1 record", the kind in the singular.
 */
import { eventName } from "../../src/tools/ga/event-words.js";
import type { KeptView } from "./api.ts";

const count = (n: number) => n.toLocaleString("en-US");

/** "records" → "record" for one ("activities" → "activity"); "3 records", "the 1 record", "Showing 1 of 1 record". */
export const kindOf = (n: number, kind: string) =>
  n !== 1 ? kind : kind.endsWith("ies") ? `${kind.slice(0, -3)}y` : kind.replace(/s$/, "");

/**
 * The kept result's items shown from `from` on (0: all of them), more perhaps still to read: "all 12
 * rows", "the 1 record", "the 5 rows loaded so far", "rows 6–10 only: the 5 before them are not in these
 * files".
 */
export function downloadWords(kind: string, items: number, from: number, more: boolean): string {
  if (from > 0) {
    const before = `the ${count(from)} before ${from === 1 ? "it is" : "them are"} not in these files`;
    return items === 1
      ? `${kindOf(1, kind)} ${count(from + 1)} only: ${before}`
      : `${kind} ${count(from + 1)}–${count(from + items)} only: ${before}`;
  }
  if (more) return `the ${count(items)} ${kindOf(items, kind)} loaded so far`;
  return items === 1 ? `the 1 ${kindOf(1, kind)}` : `all ${count(items)} ${kind}`;
}

type Row = Record<string, unknown>;

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
const day = (value: unknown) => (typeof value === "string" ? value.slice(0, 10) : undefined);

/** "Sessions", "Sessions and Purchases", "Sessions, Purchases and Revenue", "Sessions and 3 more". */
function measures(metrics: readonly string[]): string {
  if (metrics.length > 3) return `${metrics[0]} and ${metrics.length - 1} more`;
  return metrics.length <= 1 ? (metrics[0] ?? "") : `${metrics.slice(0, -1).join(" ")} and ${metrics.at(-1)}`;
}

/** "<from> to <to>" of each period, " vs " between them (a comparison's file named only its first week). */
function periods(ranges: readonly Row[]): string | undefined {
  const said = ranges.map((range) => {
    const [from, to] = [day(range.start_date), day(range.end_date)];
    return from && to ? `${from} to ${to}` : undefined;
  });
  return said.length > 0 && said.every(Boolean) ? said.join(" vs ") : undefined;
}

/**
 * A report's "sessions-by-country-<from>-to-<to>" (every measure up to three, each period, "filtered" when it
 * is: console review s13, findings 5 and 7, a comparison of three measures named for sessions and its first
 * week, and a filtered report's file named as the whole property's), a funnel's
 * "funnel-view-item-to-purchase-<from>-to-<to>" (finding 10: it was "rows-…"), an export's
 * "leads-<from>-to-<to>" (its rows' `noun`, "activities" for activities), else "<noun or kind>-<today>".
 */
export function downloadName(
  kept: Pick<KeptView, "kind">,
  data: Row | undefined,
  input: Row,
  title: (column: string) => string,
  noun?: string,
): string {
  const names = (list: unknown) =>
    (Array.isArray(list) ? list : []).filter((one): one is string => typeof one === "string").map(title);
  const ranges = Array.isArray(data?.date_ranges) ? (data.date_ranges as Row[]) : [];
  const created = (input.body as { filter?: { createdAt?: Row } } | undefined)?.filter?.createdAt;
  const from = day(created?.startAt);
  const to = day(created?.endAt);
  const metrics = names(input.metrics);
  const dimensions = names(input.dimensions);
  const steps = funnelSteps(input.funnel);
  const what = steps
    ? `funnel ${steps}`
    : metrics.length > 0
      ? [measures(metrics), ...(dimensions.length > 0 ? ["by", dimensions.join(" and ")] : [])].join(" ")
      : (noun ?? kept.kind);
  const filtered = metrics.length > 0 && typeof input.filter === "string" && input.filter.trim() !== "";
  const when = periods(ranges) ?? (from && to ? `${from} to ${to}` : new Date().toISOString().slice(0, 10));
  return `${slug(`${what} ${filtered ? "filtered " : ""}${when}`) || "result"}.csv`;
}

/** A funnel's first and last steps by their names in GA4, "View item to Purchase", when the input has one. */
function funnelSteps(funnel: unknown): string | undefined {
  const steps = (funnel as { steps?: unknown } | undefined)?.steps;
  const names = (Array.isArray(steps) ? steps : []).filter(
    (step): step is string => typeof step === "string",
  );
  const [first] = names;
  const last = names.at(-1);
  return first && last ? `${eventName(first)} to ${eventName(last)}` : undefined;
}
