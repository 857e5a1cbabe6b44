/**
 * limit "10 per date" on Run Reports: the first rows of each value of some dimensions, in order_by's order
 * (by default each group in turn, its rows by the first metric, most first), over the whole report read and sorted here (report-ratios.ts
 * wholeForSort and sortedHere: GA has no limit per group). Agents ranked within groups by hand: a day's top 10
 * pages, each site's top 20 (trial s34). The page then is the rows kept, and offset pages over them.
 */
import type { RunReportResponse } from "../../connectors/google/types.js";
import { ValidationError } from "../../errors.js";
import type { RunReportsFields } from "../../schemas/google-analytics.js";
import { n, plural } from "../numbers-in-words.js";
import {
  firstOfEachBy,
  type LimitEach,
  limitEach,
  limitEachText,
  tiedGroupsBy,
} from "../records/limit-each.js";
import { type SortKey, sortKeys } from "./report-ratios.js";

interface Limited {
  limit: number | string;
  property?: string;
  metrics: string[];
  dimensions: string[];
  date_ranges?: unknown[] | undefined;
  realtime?: boolean | undefined;
  funnel?: unknown;
  order_by?: RunReportsFields["order_by"];
}

/** Whether `property` names several properties: a comma-separated list or all (report-properties.ts). */
const several = (property: string | undefined) =>
  property !== undefined && (property.includes(",") || property.trim().toLowerCase() === "all");

/** Run Reports' fields once limit is a number (limit per's parts are apart, in EachAsk). */
export type CountedFields = Omit<RunReportsFields, "limit"> & { limit: number };

/** limit a number of rows: the report as GA pages it. limit per: the parts the step sorts and cuts by. */
export type EachAsk = { each: LimitEach; sort: SortKey[] };

/** The fields with limit a number, and limit per's groups and sort when it was written "n per dimension". */
export function limitEachRequest<F extends Limited>(
  fields: F,
): { fields: Omit<F, "limit"> & { limit: number }; each?: EachAsk } {
  const { limit } = fields;
  if (typeof limit === "number") return { fields: { ...fields, limit } };
  if (/^\s*\d+\s*$/.test(limit)) return { fields: { ...fields, limit: Number(limit) } };
  const example = `E.g. limit 100, or limit "10 per ${fields.dimensions[0] ?? "date"}" with order_by "-${fields.metrics[0] ?? "sessions"}" (the top 10 of each).`;
  const asked = limitEach(limit, example, 10_000);
  // limit applies to each property of several (report-properties.ts): "2 per property" is limit 2, and
  // "10 per property,date" is "10 per date" on each (trial s48, N657: refused, "property is not one").
  const each = { ...asked, fields: asked.fields.filter((field) => field.toLowerCase() !== "property") };
  if (each.fields.length === 0) return { fields: { ...fields, limit: each.n } };
  // The limit as written, "property" and all (review s59, F2).
  const refuse = (why: string, hint: string): never => {
    throw new ValidationError("limit", `limit "${limitEachText(asked)}" ${why}`, { hint });
  };
  // Before the dimensions: adding the dimension named would not help a funnel (review s43, 6).
  if (fields.funnel !== undefined || fields.realtime) {
    refuse("is for reports of dates, not a funnel or realtime.", "Give limit a number.");
  }
  const stray = each.fields.find((field) => !fields.dimensions.includes(field));
  if (stray !== undefined) {
    refuse(
      `takes a dimension of this report, and ${stray} is not one${fields.dimensions.length ? `: ${fields.dimensions.join(", ")}` : " (it has none)"}.`,
      fields.dimensions.length ? example : `Add ${stray} to dimensions, or give limit a number.`,
    );
  }
  if (fields.dimensions.every((field) => each.fields.includes(field))) {
    // Each group would be one row: nothing would be cut (review s43, 7).
    // With one dimension there is none fewer to name: the hint named the same limit again (review s59, F2).
    refuse(
      `names every dimension of the report, so each group is one row and nothing is cut.`,
      fields.dimensions.length > 1
        ? `Name fewer: e.g. limit "${each.n} per ${fields.dimensions[0]}", the first ${each.n} rows of each ${fields.dimensions[0]}.`
        : `Give limit a number: limit ${each.n} keeps the first ${each.n} rows${asked.fields.length > each.fields.length && several(fields.property) ? " of each property" : ""}; or add a dimension to rank within each ${fields.dimensions[0]}.`,
    );
  }
  if ((fields.date_ranges?.length ?? 1) > 1) {
    refuse("takes one date range.", "Report on one date range at a time, or give limit a number.");
  }
  // Unless order_by says otherwise, each group in turn, its rows by the first metric, most first: "each day's
  // top 10" reads day by day.
  const top = { name: fields.metrics[0] ?? "", desc: true };
  const sort =
    fields.order_by === undefined
      ? [...each.fields.map((name) => ({ name, desc: false })), top]
      : sortKeys(fields.order_by);
  return { fields: { ...fields, limit: 10_000 }, each: { each, sort } };
}

type Row = NonNullable<RunReportResponse["rows"]>[number];

const valuesAt = (row: Row, at: readonly number[], metric = false) =>
  JSON.stringify(at.map((i) => (metric ? row.metricValues : row.dimensionValues)?.[i]?.value ?? ""));

/** Sort keys as order_by writes them: "date,-sessions". */
const orderText = (keys: readonly SortKey[]): string =>
  keys.map(({ name, desc }) => `${desc ? "-" : ""}${name}`).join(",");

/** The sort keys a tie is on: the group's own dimensions are alike within it. */
const tieOn = (ask: EachAsk): string =>
  orderText(ask.sort.filter(({ name }) => !ask.each.fields.includes(name)));

/** A row's value of a sort key: a share ("sessions%", added after the cut) sorts as its metric. */
function sortValue(
  row: Row,
  name: string,
  metrics: readonly string[],
  dimensions: readonly string[],
): string {
  const metric = metrics.includes(name) ? name : name.replace(/%$/, "");
  if (metrics.includes(metric)) return valuesAt(row, [metrics.indexOf(metric)], true);
  return valuesAt(row, [dimensions.indexOf(name)]);
}

/**
 * What GA's totals cover beside limit per's rows: all the report's rows; with a metric filter, Google's reference
 * does not say whether they count the rows it leaves out (review s45, 7; report-hints.ts says the same).
 */
const totalsWords = (rows: number, metricFiltered: boolean): string =>
  metricFiltered
    ? "totals are GA's; Google's reference does not say whether they count the rows a metric filter leaves out"
    : `totals are GA's, over all ${n(rows)}`;

/**
 * The rows limit per keeps of the whole report sorted here, from `offset`; its rowCount is theirs, and the note
 * says how many of GA's rows they are and in how many groups the next row ties the last kept on the sort.
 */
export function eachPage(
  response: RunReportResponse,
  ask: EachAsk,
  offset: number,
  metricFiltered = false,
): { response: RunReportResponse; note: string | undefined } {
  const dimensions = (response.dimensionHeaders ?? []).map((header) => header.name ?? "");
  const metrics = (response.metricHeaders ?? []).map((header) => header.name ?? "");
  const rows = response.rows ?? [];
  const groupAt = ask.each.fields.map((field) => dimensions.indexOf(field));
  const keyOf = (row: Row) => valuesAt(row, groupAt);
  const kept = firstOfEachBy(rows, ask.each.n, keyOf);
  const sortOf = (row: Row) => ask.sort.map(({ name }) => sortValue(row, name, metrics, dimensions)).join();
  const tied = tiedGroupsBy(rows, ask.each.n, keyOf, sortOf);
  const by = orderText(ask.sort);
  const groups = ask.each.fields.join(" and ");
  const first = ask.each.n === 1 ? "the first row" : `the first ${n(ask.each.n)} rows`;
  // A limit that cuts nothing says nothing, as a number that cuts nothing does.
  const note =
    kept.length === rows.length
      ? undefined
      : `limit ${limitEachText(ask.each)} (order_by ${by}): ${first} of each ${groups}, ` +
        `${n(kept.length)} of the report's ${plural(rows.length, "row")}; ${totalsWords(rows.length, metricFiltered)}` +
        (tied > 0
          ? `; in ${plural(tied, "group")} (by ${groups}) the next row ties the last one kept on ${tieOn(ask)}: add a field to order_by to choose between them`
          : "") +
        ".";
  return { response: { ...response, rows: kept.slice(offset), rowCount: kept.length }, note };
}
