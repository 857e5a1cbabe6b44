/**
 * What the summary of a computed read says: the figures the tool computed ("2,856 of 5,002 records
 * match"), how the records are ordered or counted, what is shown and kept, and, when the read stopped
 * before the end, that the figures cover what was read and what to change to cover more (each such
 * instruction is done by test/mcp/marketo-compute.test.ts).
 */
import { DEFAULT_MAX_ITEMS, type MarketoApiCallInput } from "../../schemas/marketo.js";
import type { Expression } from "../filter/ast.js";
import { comparedFields, expressionFields } from "../filter/ast.js";
import { n, plural } from "../numbers-in-words.js";
import type { ComputeSpec, RecordCompute } from "../records/compute.js";
import { groupShareColumn } from "../records/count-fields.js";
import { quotedField } from "../records/fields.js";
import { bucketWords } from "./bucket-words.js";
import type { Computed } from "./compute-answer.js";
import { distinctTotalsWords, fieldTotalsWords } from "./count-totals-words.js";
import { idNamesWords } from "./id-names.js";
import { limitShownWords, limitWords } from "./limit-words.js";
import { pivotWords } from "./pivot-words.js";
import type { ReadAnswer } from "./read-calls.js";
import { sumWords } from "./sum-words.js";

/** Whether the expression compares a value with a number (a file's values are text: say they compare as numbers). */
function comparesNumbers(expression: Expression): boolean {
  if (expression.kind === "and" || expression.kind === "or") return expression.of.some(comparesNumbers);
  if (expression.kind === "not") return comparesNumbers(expression.of);
  if (expression.kind === "between") return true;
  if (expression.kind === "compare") return expression.value.kind === "number";
  if (expression.kind === "in") return expression.values.some((value) => value.kind === "number");
  return false;
}

function orderWords(spec: ComputeSpec): string {
  const keys = spec.order ?? [];
  return keys.map(({ field, desc }) => `${field} ${desc ? "descending" : "ascending"}`).join(", then ");
}

/** The figures: what matched, how it is counted or sorted. */
export function figureWords(spec: ComputeSpec, computed: Computed): string[] {
  const { compute, unit } = computed;
  const parts: string[] = [];
  if (spec.where) {
    const text =
      unit === "row" && comparesNumbers(spec.where.expression)
        ? " (numbers in the file's text compared as numbers)"
        : "";
    // With time_zone, where's dates are that zone's (records/match.ts): said, as the buckets' clock is.
    const zoned =
      spec.zone &&
      (/["']\d{4}-\d{2}-\d{2}(?:T[\d:.]+)?["']/.test(spec.where.text) ||
        comparedFields(spec.where.expression).length > 0)
        ? ` (dates in ${spec.zone}, a date alone its whole day)`
        : "";
    parts.push(
      `where ${echoed(spec.where.text)}${zoned}: ${n(compute.matched)} of ${n(compute.read)} ${unit}s match${text}`,
    );
  }
  if (spec.countBy) parts.push(...countWords(spec.countBy, computed));
  if (spec.order) parts.push(`sorted by ${orderWords(spec)}${spec.countBy ? "" : " (empty values last)"}`);
  return parts;
}

/**
 * What count_by counted: the values over the records, with min_count those kept and the records in them,
 * ignoring case how many spellings merged and which one each row shows (trial s4, T06).
 */
function countWords(fields: string[], computed: Computed): string[] {
  const { compute, unit } = computed;
  const spec = compute.spec;
  // Counted through a list each record holds (tokens.type): its items are what the counts add up to.
  const { lists, items, itemsMeetWhere, whole, none: without } = compute.unnest;
  // No matching record has an item (costs.note over programs without costs): none is counted (review s30, 8).
  const listed = lists.size > 0 || without > 0;
  const total = listed ? items + whole : compute.matched;
  // A record with an empty list is no item: said apart, not counted (review s28, finding 2).
  const none =
    (whole > 0 ? `, and each of the ${plural(whole, unit)} without the list once, empty` : "") +
    (without > 0
      ? `; the ${plural(without, unit)} with no item of it ${without === 1 ? "is" : "are"} not counted`
      : "");
  const listNames = lists.size > 0 ? [...lists] : [fields[0]?.split(".")[0] ?? ""];
  const inLists = listed
    ? ` (each of the ${plural(items, "item")} of ${listNames.join(", ")} in them${itemsMeetWhere ? " that meets where" : ""}, in its ${unit}'s place${none})`
    : "";
  const over = `${spec.where ? `the ${n(compute.matched)} matching ${unit}s` : `all ${plural(compute.matched, unit)}`}${inLists}`;
  // A condition's quoted dates are read on time_zone's clock, as where's are: said (review s25, finding 8).
  const dated = spec.conditions?.some((condition) => /["']\d{4}-\d{2}-\d{2}/.test(condition.column));
  const clock = dated ? ` (dates in ${spec.zone ?? "UTC"}, a date alone its whole day)` : "";
  const by = `counted by ${fields.map(echoed).join(", ")}${clock}${spec.ignoreCase ? " ignoring case and outer spaces" : ""}`;
  const groups = compute.groups ?? 0;
  const kept = compute.kept;
  // Values the request named (activity types, ids in the path) that no counted record has: "asked for" read
  // as something the agent had not asked for when they were path ids and where matched nothing (trial s10, N74).
  const zeros =
    compute.zeros > 0
      ? `, and ${plural(compute.zeros, `${compute.zeroFields.join(" / ")} value`)} named in the request that no ` +
        `${spec.where ? "matching " : ""}${unit} has, counted 0 (${zeroNames(compute.zeroValues)})`
      : "";
  const share = groupShareColumn(spec);
  const counted = lists.size > 0 ? "item" : unit;
  const inGroup = share
    ? `, and in ${share} its percent of the ${counted}s with the same ${spec.countBy?.[0]}`
    : "";
  const plain = kept?.groups === 1 ? "appears on" : "appear on";
  const verb = spec.distinct ? (kept?.groups === 1 ? "has" : "have") : plain;
  const on = spec.distinct ? `distinct ${spec.distinct}` : `${counted}s`;
  const adds = spec.distinct
    ? `each result row is a value, its count of distinct ${spec.distinct} and its ${counted}s, which add up to ${n(total)}`
    : `the counts add up to ${n(total)}; each result row is a value, its count and its percent of the ${n(total)} (to 0.1)${inGroup}`;
  const parts = spec.columns
    ? pivotWords(compute, unit, zeros)
    : [
        kept && spec.minCount !== undefined
          ? `${by}: ${plural(kept.groups, "value")} ${verb} ${n(spec.minCount)} or more ${on} ` +
            `(${plural(kept.records, counted)}), of ${plural(groups, "distinct value")} over ${over}; only ${kept.groups === 1 ? "it is" : "those are"} ` +
            `in the result (min_count ${n(spec.minCount)}), each row a value, its count${spec.distinct ? "" : ` and its percent of all ${n(total)}`}${inGroup}`
          : // No row: nothing to add up or describe (review s31, finding 8).
            `${by}: ${plural(groups, "value")} over ${over}${zeros}${groups > 0 || zeros ? ` (${adds})` : ""}`,
      ];
  if (share) parts.push(...fieldTotalsWords(compute, counted));
  else if (spec.distinct && !spec.columns) parts.push(...distinctTotalsWords(compute, counted));
  parts.push(...idNamesWords(computed.names));
  parts.push(...bucketWords(compute));
  // No record or row: no field to name (a per with no matching record has no row).
  if (compute.fields.names.length > 0) parts.push(fieldsWords(compute, unit, computed.from !== undefined));
  if (spec.sum && !spec.columns) parts.push(sumWords(compute, unit));
  if (spec.distinct) parts.push(distinctWords(spec.distinct, compute.distinctEmpty ?? 0, unit));
  const spellings = compute.spellings;
  if (spellings !== undefined) {
    parts.push(
      spellings > groups
        ? `${n(spellings - groups)} spellings merged into others that differ only in case or outer spaces (${n(spellings)} spellings, ${plural(groups, "value")}); ` +
            (spec.columns
              ? "each row and column shows the spelling read first"
              : "each row shows the spelling read first, its spellings column how many it merges")
        : "no two values differed only in case or outer spaces",
    );
  }
  return parts;
}

/** The fields a summary names, the first of many. */
const FIELDS_LISTED = 40;

/**
 * The fields the counted records have: a count lists no record, and agents spent a call reading three rows
 * of the same file to learn what else they could count or filter by (trial s9, third run: N45, N54).
 */
function fieldsWords(compute: RecordCompute, unit: string, perRows = false): string {
  const { fields } = compute;
  // Only what all three take: a list or an object is read through its paths (attributes.<name>), and
  // count_by refuses it whole (trial s10: a REST read listed "attributes", which count_by refused).
  const names = fields.names.filter((name) => !fields.holdsLists(name) && !fields.holdsObjects(name));
  const more = names.length > FIELDS_LISTED ? `, and ${n(names.length - FIELDS_LISTED)} more` : "";
  // An activity's attributes are a list of name/value pairs (a file holds them as JSON text): a dotted path
  // reads one (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/activities).
  const inside =
    fields.names.includes("attributes") && !names.some((name) => name.startsWith("attributes."))
      ? // A name with a space quoted whole, or where stops at the space (trial s10, third run, N70).
        ' (attributes.<name> reads one attribute; a name with a space is quoted whole: "attributes.<the name>")'
      : "";
  // As where reads them: a name with a space quoted (trial s10, N75 wrote attributes.New Value as listed).
  const listed = names.slice(0, FIELDS_LISTED).map(quotedField).join(", ");
  // Paths into the objects of a list each record holds (tokens.type): count_by counts each item (unnest.ts).
  const items = fields.listLeaves.filter((path) => !names.includes(path)).slice(0, FIELDS_LISTED);
  const each =
    items.length > 0
      ? `; in each item of a list, which count_by counts and where tests: ${items.map(quotedField).join(", ")}`
      : "";
  // per's rows: where tests the records before they are rolled up (review s32, finding 4).
  const take = perRows ? "count_by, order_by and sum take" : "count_by, where and order_by take";
  return `the ${unit}s' fields, which ${take}: ${listed}${more}${inside}${each}`;
}

/** What count_distinct counted, and the records it could not count (no value). */
function distinctWords(field: string, empty: number, unit: string): string {
  const none = empty > 0 ? ` (${plural(empty, unit)} with no ${field} not counted)` : "";
  return `counted distinct ${field}: each count is the number of different ${field} values among its ${unit}s${none}`;
}

/** What is shown here, what is kept, and what to do to read on or to cover more. */
export function shownWords(computed: Computed, answer: ReadAnswer): string[] {
  const { counts } = answer;
  const spec = computed.compute.spec;
  // With count_by, what is shown and linked are count rows over the records read (trial s4, T06).
  const what = spec.countBy
    ? `count rows (over ${plural(computed.compute.read, computed.unit)}${computed.from === undefined ? " read" : ""})`
    : `${computed.unit}s`;
  const parts: string[] = [];
  // A read held whole whose results pass what one answer keeps (joined-answer.ts; review s36, 5 and 8).
  if (computed.overflow) {
    // With limit, of the results before it: "of the 10,000" read as a count of matches (review s37, 6).
    const all = `${n(counts.beforeLimit ?? counts.read + computed.overflow)} ${what}`;
    const linked = counts.kept ? `, the first ${n(counts.read)} in the full result linked below` : "";
    const limit = counts.beforeLimit !== undefined ? ` (${limitWords(spec)} is more than that)` : "";
    parts.push(
      `the first ${n(counts.shown)} of the ${all} are shown here${linked}; the rest are not kept, the most one answer holds${limit} (the figures are of them all): narrow with where, or count with count_by`,
    );
    if (!spec.countBy && computed.from === undefined) parts.push(inToolWords(computed.kept));
    return parts;
  }
  if (counts.beforeLimit !== undefined) {
    parts.push(limitShownWords(spec, answer, what, counts.beforeLimit));
    if (counts.shown === counts.read) return parts;
  }
  if (counts.shown < counts.read) {
    const preview = computed.file && counts.kept && !spec.countBy ? " as a preview" : "";
    parts.push(`the first ${n(counts.shown)} ${what} are shown here${preview}`);
    parts.push(
      counts.kept
        ? `all ${n(counts.read)} are in the ${answer.full?.file ? "file" : "full result"} linked below`
        : "the rest are not kept by this client: narrow where, or count with count_by",
    );
    if (!spec.countBy && computed.from === undefined) parts.push(inToolWords(computed.kept));
  } else if (counts.read > 0) {
    const linked = counts.kept
      ? ` and in the ${answer.full?.file ? "file" : "full result"} linked below`
      : "";
    // One row is "the count row is", not "all 1 count rows are" (review s21, 8b).
    const which =
      counts.read === 1
        ? `the ${what.replace(/^count rows/, "count row").replace(/s$/, "")} is`
        : `all ${n(counts.read)} ${what} are`;
    parts.push(`${which} shown here${linked}`);
  }
  return parts;
}

/**
 * More records than shown, and none counted: how to have the figures in this call instead of reading them all
 * (trial s31, N438: an agent read 264,000 characters of form fills to count fills per lead and the gaps between).
 */
function inToolWords(records: readonly Record<string, unknown>[]): string {
  const first = records[0] ?? {};
  // Only what these records take (review s36, 6): per "leadId" where they have one, pairs where the call has none.
  const pairs =
    first.activityTypeId !== undefined && !("next" in first) && !("previous" in first)
      ? ", next or previous (each with the lead's next or last activity of a type, and the hours between)"
      : "";
  const per = first.leadId !== undefined ? ', per "leadId" (a row per lead, with its count)' : "";
  return `to have figures without reading them all: count_by (counts, bands; with sum: mean, median, min, max)${per}${pairs}, in this call`;
}

/** That max_items counts what is read, before the call's where, count_by and order_by ("" without them). */
export function readBeforeWords(input: MarketoApiCallInput, unit: "record" | "row"): string {
  const steps = (["where", "count_by", "order_by", "limit"] as const).filter(
    (step) => input[step] !== undefined,
  );
  return steps.length === 0
    ? ""
    : `max_items counts ${unit}s read before ${steps.join(" and ")}, not results`;
}

/**
 * A read max_items stopped: that the cut came before where and count_by (max_items counts records read, and a
 * fresh agent took it for the results wanted, trial s9, N47), and what covers more: a higher max_items, or
 * without paginate, none (max_items then cut the one page Marketo returned).
 */
function itemsCapWords(input: MarketoApiCallInput, computed: Computed, read: string): string {
  const said = readBeforeWords(input, computed.unit);
  const before = said ? `; ${said}` : "";
  if (computed.pageRecords !== undefined) {
    return (
      `max_items (${read} read of the ${n(computed.pageRecords)} on Marketo's page${before}): leave max_items out ` +
      "to cover the whole page (paginate true for every page)"
    );
  }
  const pages = input.paginate && computed.unit === "record" ? " and max_pages" : "";
  return `max_items (${read} read${before}): raise max_items (at most 100,000)${pages} to cover more`;
}

/** When the read stopped before the end or the answer holds less than matched: what to do to read on. */
export function stopWords(
  input: MarketoApiCallInput,
  computed: Computed,
  cursor: boolean,
  afterShown = false,
): string[] {
  const spec = computed.compute.spec;
  const again = `call again with cursor = next_cursor (same method, endpoint, query_parameters${[
    spec.where ? "where" : "",
    input.join ? "join" : "",
  ]
    .filter(Boolean)
    .map((name) => ` and ${name}`)
    .join("")})`;
  if (!computed.next)
    return cursor
      ? [`more ${spec.where ? "match" : "remain"}: to continue after the ${computed.unit}s shown, ${again}`]
      : [];
  if (computed.stoppedBy === "bytes" && !spec.order && !spec.countBy) {
    return [`more remain to be read: to continue after the ${computed.unit}s shown, ${again}`];
  }
  if (computed.stoppedBy === "limit") {
    const read = plural(computed.compute.read, computed.unit);
    return [
      `the read stopped once limit ${n(spec.limit ?? 0)} had its ${computed.unit}s (${read} read, the pages after them not read)`,
      `to continue after the ${computed.unit}s shown, ${again}`,
    ];
  }
  const read = plural(computed.compute.read, `${computed.unit}`);
  const cap =
    computed.stoppedBy !== "pages"
      ? itemsCapWords(input, computed, read)
      : input.paginate || computed.unit === "row"
        ? `max_pages (${plural(computed.pages, "page")}, ${read} read): raise max_pages (at most 200) to cover more`
        : // Without paginate one page is read whatever max_pages says (review s22, finding 4).
          `one page (${read} read; paginate is not set): give paginate true to read every page`;
  // join alone has no figures: only the records read were joined (review s44, 8).
  const figures =
    spec.where && !spec.order && !spec.countBy
      ? "only the records read were tested"
      : spec.join && !spec.order && !spec.countBy && spec.limit === undefined && !spec.each
        ? "only the records read were joined"
        : "the figures below cover only the records read";
  // Where the cursor goes on: right after the last record shown (read order), or after the last one read.
  const after = afterShown
    ? `the ${computed.unit}s shown`
    : `them${spec.order || spec.countBy ? " (its figures are its own)" : ""}`;
  return [`the read stopped at ${cap}; ${figures}`, `or ${again} to go on after ${after}`];
}

/** The fields a spec names, for tests and words. */
export function specFields(spec: ComputeSpec): string[] {
  return [
    ...(spec.where ? expressionFields(spec.where.expression) : []),
    ...(spec.order ?? []).map((key) => key.field),
    ...(spec.countBy ?? []),
  ];
}

/** The summary of a computed REST read or file read: the read, the figures, what is shown. */
export function computedSummary(
  input: MarketoApiCallInput,
  computed: Computed,
  answer: ReadAnswer,
  head: string,
): string {
  const { counts } = answer;
  const afterShown =
    !computed.compute.spec.order &&
    !computed.compute.spec.countBy &&
    counts.shown < (counts.beforeLimit ?? counts.read);
  const stops = stopWords(input, computed, answer.data.next_cursor !== undefined, afterShown);
  // Whether max_items cut the read, said when it applies (every page, or a file) and did not (stopWords
  // says when it did): "5,000 read" equal to the default left it unclear (trial s4, T01).
  const limit = input.max_items ?? DEFAULT_MAX_ITEMS;
  // An export run to completion has no max_items unless given (export-then.ts answers here).
  const uncut =
    (input.paginate || computed.unit === "row" || input.max_items !== undefined) &&
    !(input.run_to_completion && input.max_items === undefined) &&
    computed.stoppedBy !== "items"
      ? [
          `max_items ${n(limit)}${input.max_items === undefined ? " (the default)" : ""} did not cut the read of ${computed.from === undefined ? plural(computed.compute.read, computed.unit) : plural(computed.from, "record")}`,
        ]
      : [];
  // A read a cap cut says so before its figures: "1,086 of 1,086 records match" first read as the whole
  // answer (trial s8, N35: 1,086 of 3,211 Send Email activities), the cut only at the end.
  const cut = computed.next !== undefined && computed.stoppedBy !== "bytes" && stops.length > 0;
  const parts = [
    head,
    ...(cut ? stops : []),
    ...figureWords(computed.compute.spec, computed),
    ...shownWords(computed, answer),
    ...uncut,
    ...(cut ? [] : stops),
  ];
  return `${parts.join("; ")}.`;
}

/** The values named in the request and not counted, quoted: the first five, then how many more. */
function zeroNames(values: readonly string[]): string {
  const shown = values.slice(0, 5).map((value) => JSON.stringify(value));
  return values.length > 5 ? `${shown.join(", ")} and ${n(values.length - 5)} more` : shown.join(", ");
}

/** The most characters of the caller's own where or count_by condition the summary says back. */
const ECHOED = 200;

/**
 * A long where or condition (an id list of another read, up to 30,000 characters) said back by its start and
 * length: the caller has it, and 17,000 characters of it repeated cost a 9-row answer 10,000 tokens (review s27,
 * finding 2).
 */
export function echoed(text: string): string {
  return text.length <= ECHOED ? text : `${text.slice(0, ECHOED)}… (${n(text.length)} characters in all)`;
}
