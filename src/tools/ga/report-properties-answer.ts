/**
 * Several properties' reports as one answer (report-properties.ts runs them, each as that property alone
 * answers it): one table whose first column names the property, each property's rows in turn, its totals
 * rows tagged the same way, and per property (`properties`) its row count, where its next rows start, its
 * time zone, currency, quota (quota is per property: there is no single figure) and, when the zones differ,
 * its dates; or why it failed. The summary gives each property's totals, or "no rows", or its failure.
 */

import { ValidationError } from "../../errors.js";
import { jsonBytes } from "../../json-size.js";
import type { RunReportsFields, RunReportsOutput } from "../../schemas/google-analytics.js";
import { n as count, plural } from "../numbers-in-words.js";
import { capItems, MAX_RESULT_BYTES } from "../output-cap.js";
import type { FullResult, ToolContext, ToolResult } from "../types.js";
import type { StatedRange } from "./date-presets.js";
import { type PropertyRef, propertyText } from "./property-name.js";
import { onlyWhere, rangesText } from "./report-answer.js";
import type { FlatRow } from "./report-flatten.js";
import { checkSeveral, type OneReport, type Outcome, onEachProperty } from "./report-properties.js";
import { sortKeys } from "./report-ratios.js";
import { isShare } from "./report-shares.js";

/** The column that names each row's property: "Retail Web Store (properties/412345671)". */
export const PROPERTY_COLUMN = "property";
/** Room left in the answer beside the rows: the properties' table, totals, the request and the hints. */
const ROOM_FOR_THE_REST = 10_000;

type Answered = { property: PropertyRef; answer: OneReport };
type Failed = { property: PropertyRef; error: Error };
type Data = RunReportsOutput;

/** Runs the report on each property and joins the answers; an error only when every property failed. */
export async function reportOnProperties(
  fields: RunReportsFields,
  properties: readonly PropertyRef[],
  ctx: ToolContext,
  run: (property: PropertyRef, on: ToolContext) => Promise<OneReport>,
): Promise<ToolResult<Data>> {
  checkSeveral(fields);
  let done = 0;
  const outcomes = await onEachProperty(properties, async (property) => {
    // The same context, its progress saying which property and how many are done.
    const on: ToolContext = Object.assign(Object.create(ctx) as ToolContext, {
      progress: ({ message }: { message?: string }) =>
        ctx.progress({
          progress: done,
          total: properties.length,
          message: `${propertyText(property)}: ${message ?? "running"}`,
        }),
    });
    try {
      return await run(property, on);
    } finally {
      done += 1;
    }
  });
  const answered = outcomes.filter((o): o is Answered => "answer" in o);
  if (answered.length === 0) throw everyFailed(outcomes.filter((o): o is Failed => "error" in o));
  return joined(fields, outcomes, ctx.fullResults?.maxBytes);
}

/** Every property failed: their one error when they share it, else each property's. */
function everyFailed(failed: readonly Failed[]): Error {
  const first = failed[0] as Failed;
  if (failed.every((f) => f.error.message === first.error.message)) return first.error;
  const other = failed.find((f) => !(f.error instanceof ValidationError));
  if (other) return other.error;
  return new ValidationError(
    "property",
    `the report failed on every property: ${failed.map((f) => `${propertyText(f.property)}: ${f.error.message}`).join(" ")}`,
    { hint: "Fix what each says, or leave those properties out of property." },
  );
}

/**
 * The properties' rows in one order when order_by is given: each property's rows already come in it (GA's sort,
 * or the step's for a ratio), so a stable sort merges them and every property's shown rows stay the first of its
 * own. Before, the rows stood property by property and a sort on revenue per user across five sites did not
 * read as one (trial s17, N163).
 */
function sortedAcross(rows: FlatRow[], order: RunReportsFields["order_by"]): FlatRow[] {
  // "Property" names the property column as "property" does: each property's request drops either (review s59, F1).
  const keys = sortKeys(order).map((key) =>
    key.name.toLowerCase() === PROPERTY_COLUMN ? { ...key, name: PROPERTY_COLUMN } : key,
  );
  if (keys.length === 0) return rows;
  const compare = (a: FlatRow, b: FlatRow) => {
    for (const { name, desc } of keys) {
      const [x, y] = [a[name], b[name]];
      if (x === y || x === undefined || y === undefined) continue;
      if (x === null || y === null) return x === null ? 1 : -1;
      const diff = typeof x === "number" && typeof y === "number" ? x - y : String(x) < String(y) ? -1 : 1;
      if (diff !== 0) return desc ? -diff : diff;
    }
    return 0;
  };
  return [...rows].sort(compare);
}

const tagged = (property: PropertyRef, rows: readonly unknown[]): FlatRow[] =>
  rows.map((row) => ({ [PROPERTY_COLUMN]: propertyText(property), ...(row as FlatRow) }));

/** A value when every answer has the same one (dates, comparison, metadata), else undefined. */
function common<T>(values: readonly T[]): T | undefined {
  const first = JSON.stringify(values[0]);
  return values.every((value) => JSON.stringify(value) === first) ? values[0] : undefined;
}

function joined(
  fields: RunReportsFields,
  outcomes: readonly Outcome<OneReport>[],
  keepBytes: number | undefined,
): ToolResult<Data> {
  const answered = outcomes.filter((o): o is Answered => "answer" in o);
  const datas = answered.map((o) => o.answer.result.data);
  const rows = sortedAcross(
    answered.flatMap((o) => tagged(o.property, o.answer.result.data.rows)),
    fields.order_by,
  );
  const capped = capItems(rows, MAX_RESULT_BYTES - ROOM_FOR_THE_REST, true);
  const shown = (property: PropertyRef) =>
    capped.items.filter((row) => row[PROPERTY_COLUMN] === propertyText(property)).length;
  const zones = new Set(datas.map((data) => data.metadata?.time_zone));
  const sameDates = zones.size === 1 && common(datas.map((data) => data.date_ranges)) !== undefined;
  const entries = outcomes.map((o) =>
    "error" in o ? failedEntry(o) : entry(o, { shown: shown(o.property), fields, sameDates }),
  );
  const nexts = entries.flatMap((e) => (typeof e.next_offset === "number" ? [e.next_offset] : []));
  const full = keptRows(answered, capped, keepBytes);
  const partial = answered.some((o) => shown(o.property) < o.answer.result.data.row_count);
  const paging = pagingHints(fields, entries, { cut: capped.dropped > 0, partial }, full);
  const hints = [...joinedHints(answered), ...paging];
  if (fields.chart)
    hints.push("No chart: a chart is drawn of one property's report; run it on one property.");
  const first = datas[0] as Data;
  const dateRanges = sameDates ? first.date_ranges : undefined;
  const comparison = common(datas.map((data) => data.comparison));
  const metadata = common(datas.map((data) => data.metadata));
  const data: Data = {
    property: outcomes.map((o) => `properties/${o.property.id}`).join(","),
    rows: capped.items,
    row_count: datas.reduce((sum, d) => sum + d.row_count, 0),
    ...(nexts.length > 0 ? { next_offset: Math.min(...nexts) } : {}),
    totals: answered.flatMap((o) => tagged(o.property, o.answer.result.data.totals)),
    ...(metadata ? { metadata } : {}),
    ...(dateRanges ? { date_ranges: dateRanges } : {}),
    ...(comparison ? { comparison } : {}),
    properties: entries,
    request: first.request,
    hints,
  };
  return {
    data,
    summary: joinedSummary(fields, outcomes, { shown: capped.items.length, sameDates }),
    ...(full ? { full: { ...withoutCount(full), shown: capped.items.length } } : {}),
  };
}

const withoutCount = ({ read: _read, ...full }: FullResult & { read: number }): FullResult => full;

function failedEntry(o: Failed): Record<string, unknown> {
  return {
    property: `properties/${o.property.id}`,
    ...(o.property.displayName ? { property_name: o.property.displayName } : {}),
    error: o.error.message,
  };
}

/** One property's line of the `properties` table. */
function entry(
  o: Answered,
  { shown, fields, sameDates }: { shown: number; fields: RunReportsFields; sameDates: boolean },
): Record<string, unknown> {
  const data = o.answer.result.data;
  const more = !fields.realtime && data.rows.length > 0 && fields.offset + shown < data.row_count;
  return {
    property: data.property,
    ...(data.property_name ? { property_name: data.property_name } : {}),
    row_count: data.row_count,
    ...(more ? { next_offset: fields.offset + shown } : {}),
    ...(data.metadata?.time_zone ? { time_zone: data.metadata.time_zone } : {}),
    ...(data.metadata?.currency_code ? { currency_code: data.metadata.currency_code } : {}),
    ...(!sameDates && data.date_ranges ? { date_ranges: data.date_ranges } : {}),
    ...(data.quota ? { quota: data.quota } : {}),
  };
}

/** Every row each property's report read (beyond the answer's cap too), for an adapter that keeps them. */
function keptRows(
  answered: readonly Answered[],
  capped: { items: FlatRow[]; dropped: number },
  keepBytes: number | undefined,
): (FullResult & { read: number }) | undefined {
  const read = (o: Answered) => o.answer.result.full?.items ?? o.answer.result.data.rows;
  if (keepBytes === undefined) return undefined;
  if (capped.dropped === 0 && !answered.some((o) => o.answer.result.full)) return undefined;
  const all = answered.flatMap((o) => tagged(o.property, read(o)));
  const items = capItems(all, Math.max(keepBytes, jsonBytes(capped.items)), true).items;
  const columns = new Set<string>([PROPERTY_COLUMN]);
  for (const o of answered) {
    const own = o.answer.result.full?.columns ?? Object.keys(o.answer.result.data.rows[0] ?? {});
    for (const column of own) columns.add(column);
  }
  return { kind: "rows", items, columns: [...columns], read: all.length };
}

/** The properties' hints: once when every property has it, else after the property's name. */
function joinedHints(answered: readonly Answered[]): string[] {
  const own = answered.map((o) => o.answer.result.data.hints.filter((h) => !o.answer.pageHints.includes(h)));
  const everyone = (own[0] ?? []).filter((hint) => own.every((hints) => hints.includes(hint)));
  const single = answered.flatMap((o, i) =>
    (own[i] ?? []).filter((h) => !everyone.includes(h)).map((h) => `${propertyText(o.property)}: ${h}`),
  );
  return [...everyone, ...single];
}

function pagingHints(
  fields: RunReportsFields,
  entries: readonly Record<string, unknown>[],
  o: { cut: boolean; partial: boolean },
  full: (FullResult & { read: number }) | undefined,
): string[] {
  const more = entries.filter((e) => typeof e.next_offset === "number");
  const hints: string[] = [];
  const why = o.cut ? ` (output capped at ${MAX_RESULT_BYTES / 1000} KB)` : "";
  if (more.length > 0) {
    const each = more.map((e) => `${e.property_name ?? e.property} from offset ${e.next_offset}`);
    hints.push(
      `More rows remain${why}: ${each.join(", ")}. Call again with offset (next_offset is the smallest), ` +
        `or with property set to one of them and its offset.`,
    );
  } else if (fields.realtime && o.partial) {
    hints.push(
      `Not every row is shown${why}: realtime reports cannot be paged with offset; raise limit, or narrow the ` +
        "report (a filter, fewer dimensions) or sort it with order_by to see the rows that matter first.",
    );
  }
  if (full) {
    const of =
      full.read > full.items.length
        ? `The first ${count(full.items.length)} of the ${count(full.read)}`
        : `All ${count(full.read)}`;
    hints.push(`${of} rows the properties' reports read are in the full result linked with this answer.`);
  }
  return hints;
}

/**
 * The answer in words: the properties and dates, then each property in turn: its rows and totals, "no rows",
 * or why it failed; each property's dates in its own time zone when the zones differ.
 */
function joinedSummary(
  fields: RunReportsFields,
  outcomes: readonly Outcome<OneReport>[],
  o: { shown: number; sameDates: boolean },
): string {
  const answered = outcomes.filter((x): x is Answered => "answer" in x);
  const first = answered[0]?.answer.result.data;
  const stated = first?.date_ranges;
  const dates =
    stated && o.sameDates
      ? ` for ${rangesText(stated as StatedRange[])}, dates in ${first?.metadata?.time_zone ?? "UTC"}`
      : stated
        ? ", each property's dates in its own time zone"
        : "";
  const rowCount = answered.reduce((sum, x) => sum + x.answer.result.data.row_count, 0);
  const head =
    `${fields.realtime ? "Realtime report" : "Report"} on ${count(outcomes.length)} properties${dates}` +
    `${onlyWhere(fields.filter)}: ${plural(o.shown, "row")} of ${count(rowCount)}, the property in the first column` +
    `${fields.order_by === undefined ? "" : ", sorted by order_by across the properties"}.`;
  // A note every property's answer has (the same month lengths on every property) is said once, after the head
  // (trial s18, N181: five times over).
  // Properties without rows may lack a note about rows (what a column is): those with rows decide.
  const withRows = answered.filter((x) => x.answer.result.data.row_count > 0);
  const deciding = withRows.length > 1 ? withRows : answered;
  const shared = (deciding[0]?.answer.notes ?? []).filter(
    (note) => deciding.length > 1 && deciding.every((x) => x.answer.notes?.includes(note)),
  );
  const tailOf = (x: Answered) => shared.reduce((tail, note) => tail.replace(` ${note}`, ""), x.answer.tail);
  const each = outcomes.map((x) => {
    const name = propertyText(x.property);
    if ("error" in x) return `${name} failed: ${x.error.message}`;
    const data = x.answer.result.data;
    const own =
      !o.sameDates && data.date_ranges
        ? ` (${rangesText(data.date_ranges as StatedRange[])}, ${data.metadata?.time_zone ?? "UTC"})`
        : "";
    if (data.row_count === 0) return `${name}${own}: no rows.${tailOf(x)}`;
    const totals = totalsWords(data);
    return `${name}${own}: ${plural(data.row_count, "row")}${totals ? `; ${totals}` : ""}.${tailOf(x)}`;
  });
  return [head, ...usersApart(fields, answered.length), ...shared, ...each].join(" ");
}

/** Metrics that count users: totalUsers, activeUsers, newUsers, active7DayUsers… (GA4's API schema). */
const USERS =
  /^(?:totalUsers|activeUsers|newUsers|active\d+DayUsers|returningUsers|totalPurchasers|firstTimePurchasers)$/;

/**
 * Users summed across properties are not people: each property counts its own users (a property is a
 * separate data set, https://support.google.com/analytics/answer/9679158), so a person who uses two sites is
 * in both totals, and the overlap is not in any report (trial s20, N222: the totals came without a word).
 */
function usersApart(fields: RunReportsFields, answered: number): string[] {
  const users = fields.metrics.filter((name) => USERS.test(name.replace(/%$/, "")));
  if (answered < 2 || users.length === 0) return [];
  return [
    `${users.join(", ")} ${users.length === 1 ? "is" : "are"} counted in each property apart: a person who uses two of them is in both totals, so adding the properties' users overcounts the people, and no report gives the overlap.`,
  ];
}

/** A property's totals in words: "eventCount 1,234" (per date range when there are several). */
function totalsWords(data: Data): string {
  const dimensions = (data.request.dimensions as unknown[] | undefined) ?? [];
  const rows = data.totals.length > 0 ? data.totals : dimensions.length === 0 ? data.rows : [];
  return rows
    .map((row) => {
      const figures = Object.entries(row).flatMap(([name, value]) =>
        // A share's total is 100 % of itself: not a figure (report-shares.ts).
        typeof value === "number" && !isShare(name) ? [`${name} ${count(value)}`] : [],
      );
      const range = typeof row.dateRange === "string" ? ` (${row.dateRange})` : "";
      return figures.length > 0 ? `total ${figures.join(", ")}${range}` : "";
    })
    .filter(Boolean)
    .join("; ");
}
