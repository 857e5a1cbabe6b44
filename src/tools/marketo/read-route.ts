/**
 * Which reader answers a Marketo API Call: an export run to completion, an export or import file, a
 * REST read with where/order_by/count_by, or a plain call. Activity reads take type names in
 * activityTypeIds and name each record's type on the way (activity-types.ts).
 */
import type { CheckedPath } from "../../connectors/endpoint-guard.js";
import type { FilePosition } from "../../connectors/marketo/bulk-file.js";
import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import type { MarketoUpload, OnWait, ResumePosition } from "../../connectors/marketo/types.js";
import { ValidationError } from "../../errors.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { type ComputeSpec, namedFields, RecordCompute } from "../records/compute.js";
import { PerGroups, perFields, perNamedField, perParts } from "../records/per.js";
import { keepCounted } from "../records/retained.js";
import type { ToolContext } from "../types.js";
import { groupedActivities, isGroupedRead } from "./activity-groups.js";
import { type ActivityPairs, activityPairs } from "./activity-pairs.js";
import {
  ACTIVITY_EXPORT_CREATE,
  type ActivityNaming,
  activityNaming,
  activityQuery,
  activityTypes,
  askedTypes,
  isActivityRead,
  typeIds,
} from "./activity-types.js";
import { computeRead } from "./compute-read.js";
import { runExport } from "./export-run.js";
import { exportThen, isExportThen } from "./export-then.js";
import type { FanOut } from "./fan-out.js";
import { fanOutRead } from "./fan-out-read.js";
import { checkPerFields } from "./joined-answer.js";
import { leadFieldNames, leadJoin } from "./lead-join.js";
import { type Labeler, membershipLabeler, nameMemberships } from "./membership-names.js";
import { asWritten } from "./position.js";
import type { ProgramTypeFilter } from "./program-type.js";
import { type ReadAnswer, type ReadSoFar, readCalls } from "./read-calls.js";
import { readFile } from "./read-file.js";

/** The where syntax, with names Marketo's records have (the hint of every where syntax error). */
export const WHERE_HINT =
  'Write conditions as field operator value, e.g. leadScore > 50, email ends_with "@acme.com", ' +
  'createdAt >= "2024-01-31", leadSource in ("Web", "Trade Show"), company is empty; quote text and dates; ' +
  "combine with and, or, not and parentheses.";

const COMPUTE_FIELDS = ["where", "order_by", "count_by", "limit", "join"] as const;

/** Each field's example value, for the hint of a refusal that names it. */
const EXAMPLES: Record<(typeof COMPUTE_FIELDS)[number], string> = {
  where: '"leadScore > 50"',
  order_by: '"-leadScore"',
  count_by: '"leadSource"',
  limit: "10",
  join: '"<a Full result\'s link> on id = leadId"',
};

/** where, order_by, count_by and limit work on records read: refused on a call that writes, before anything is sent. */
export function checkComputable(input: MarketoApiCallInput): void {
  if (input.method === "GET" || input.run_to_completion) return;
  const field = COMPUTE_FIELDS.find((name) => input[name] !== undefined) ?? "where";
  throw new ValidationError(
    field,
    `it applies to records read: a GET (paginate true for every page), an export or import file, or an export run to completion; not to a ${input.method}.`,
    {
      hint: `E.g. method GET, endpoint /rest/v1/lists/1001/leads.json, query_parameters {"fields":"id,email,leadScore"}, paginate true, ${field} ${EXAMPLES[field]}.`,
    },
  );
}

/**
 * per's keys, before anything is read: none empty ("leadId &"), none twice, and no "&" among the listed fields, which
 * only joins the keys before the first comma (review s50, 6: each was refused as an empty first field, taken
 * silently, or refused as an unknown field named with the "&").
 */
function checkPerKeys(per: string): void {
  const { keys } = perFields(per);
  const named = keys.filter((key) => key !== "");
  if (keys.length > 1 && keys.includes(""))
    throw new ValidationError("per", `a key around "&" is empty: ${JSON.stringify(per)}.`, {
      // The keys given, as they can be read (review s52, 5: a fixed pair was offered, which a leads read lacks).
      hint: `Name a field on each side of "&", e.g. per "${named.length > 0 ? named.join(" & ") : "leadId"}".`,
    });
  if (keys.includes(""))
    throw new ValidationError("per", "its first field, the one each row is for, is empty.", {
      hint: 'Name it first, e.g. per "leadId" or "leadId,attributes.Is Mobile Device".',
    });
  const twice = keys.find((key, at) => keys.indexOf(key) !== at);
  if (twice !== undefined)
    throw new ValidationError("per", `${twice} is named twice among its keys.`, {
      hint: `Name each key once, e.g. per "${[...new Set(keys)].join(" & ")}".`,
    });
  // Outside quotes: a quoted name may hold "&" ("attributes.Q&A").
  const parts = perParts(per);
  const joined = parts
    .slice(1)
    .find((part) => part.replace(/"[^"]*"/g, "").includes("&"))
    ?.trim();
  if (joined !== undefined) {
    // The keys first, the fields listed after them kept (review s52, 5: the hint dropped them).
    const moved = [...keys, ...joined.split("&").map((part) => part.trim())].filter(
      (key, at, all) => key !== "" && all.indexOf(key) === at,
    );
    const others = parts
      .slice(1)
      .map((part) => part.trim())
      .filter((part) => part !== "" && part !== joined);
    throw new ValidationError(
      "per",
      `"&" joins the keys before the first comma, not ${JSON.stringify(joined)} after it.`,
      {
        hint: `Put the keys first, joined by "&", e.g. per "${[moved.join(" & "), ...others].join(",")}".`,
      },
    );
  }
}

/**
 * per rolls up the records of a GET read of REST records or the rows of an export run to completion (export-then.ts):
 * refused on a file read by GET, a write or a cursor, before anything is sent.
 */
export function checkPer(input: MarketoApiCallInput, file: boolean): void {
  if (input.per !== undefined) checkPerKeys(input.per);
  if (input.per === undefined || input.run_to_completion) return;
  const what = file
    ? "an export or import file read by GET (run the export with run_to_completion instead)"
    : input.method !== "GET"
      ? `a ${input.method}`
      : input.cursor !== undefined
        ? "a cursor's next page (the rows are of the whole read)"
        : undefined;
  if (!what) return;
  throw new ValidationError(
    "per",
    `it rolls up the records of a GET read of REST records (paginate true reads every page) or of an export run to completion, not ${what}.`,
    {
      hint: 'E.g. method GET, endpoint /rest/v1/activities.json, query_parameters {"sinceDatetime":"2026-11-01","activityTypeIds":"Visit Webpage,Click Email"}, paginate true, max_pages 200, per "leadId", count_by "types".',
    },
  );
}

/**
 * A per field the call's own inputs make a list or an object: an activity's attributes (a name/value list; an
 * export's JSON text), the lead lead_fields joins, the activity next or previous pairs. Refused before anything
 * is read, naming a field inside it (review s38, 10 and 12: refused after a read of 60 pages, or on an export
 * not at all, each row keyed or listed by whole JSON texts).
 */
export function checkPerContainers(input: MarketoApiCallInput, path: string): void {
  if (input.per === undefined) return;
  const activities = isActivityRead(input.method, path) || path === ACTIVITY_EXPORT_CREATE;
  const inside: Record<string, string | undefined> = {
    attributes: activities
      ? "the activity's attributes (a name/value list; an export's JSON text)"
      : undefined,
    lead:
      input.lead_fields !== undefined
        ? "the fields of each record's lead that lead_fields joins (an object)"
        : undefined,
    next: input.next !== undefined ? "the activity next pairs (an object)" : undefined,
    previous: input.previous !== undefined ? "the activity previous pairs (an object)" : undefined,
  };
  const examples: Record<string, string> = {
    attributes: '"attributes.Is Mobile Device"',
    lead: `"lead.${leadFieldNames(input.lead_fields ?? "")[0] ?? "email"}"`,
    next: '"next.primaryAttributeValue"',
    previous: '"previous.primaryAttributeValue"',
  };
  const { field, keys, listed } = perFields(input.per);
  if (activities) checkUndated([...keys, ...listed]);
  const whole = [...keys, ...listed].find((name) => inside[name] !== undefined);
  if (whole === undefined) return;
  const inner = examples[whole]?.slice(1, -1);
  throw new ValidationError(
    "per",
    `${whole} holds ${inside[whole]}, not one value a row can be for or list.`,
    {
      // The other keys kept in the example (review s50, 4: per "leadId & next" was offered "next.…" alone).
      hint: `Name a field inside it, e.g. per "${keys.includes(whole) ? keys.map((key) => (key === whole ? inner : key)).join(" & ") : `${field},${inner}`}".`,
    },
  );
}

/** An activity's fields that hold ids or names, never a date (Get Lead Activities' response, Adobe's swagger-mapi.json, definitions.Activity). */
const UNDATED = new Set([
  "id",
  "marketoGUID",
  "leadId",
  "activityTypeId",
  "activityType",
  "campaignId",
  "primaryAttributeValueId",
  "primaryAttributeValue",
]);

/**
 * A date bucket of an activity field that is no date ("leadId:week"): refused before the read, which it failed
 * after, 21 s into a grouped read or after an export ran (review s39, 9).
 */
function checkUndated(names: readonly string[]): void {
  for (const name of names) {
    const match = /^([^:]+):([A-Za-z]+)$/.exec(name);
    if (!match || !UNDATED.has(match[1] as string) || /^band$/i.test(match[2] as string)) continue;
    throw new ValidationError(
      "per",
      `${name} is a date bucket of ${match[1]}, which holds ids or names, not dates.`,
      {
        hint: 'Bucket a date: per "leadId,activityDate:day" (:week, :month, :weekday, :hour), or name the field alone.',
      },
    );
  }
}

/** The rows of per: by the field given; an activity read's rows list its types too. */
function perGroups(route: Route): PerGroups | undefined {
  const { per } = route.input;
  if (per === undefined) return undefined;
  const activities =
    isActivityRead(route.input.method, route.checked.value) || route.checked.value === ACTIVITY_EXPORT_CREATE;
  // A row per lead keeps the lead's own fields that lead_fields joined (trial s30 N426, N427 expected them there).
  const lead =
    perFields(per).keys.includes("leadId") && route.input.lead_fields !== undefined ? "lead" : undefined;
  return new PerGroups(
    per,
    activities ? "activityType" : undefined,
    lead,
    route.spec?.zone ?? route.input.time_zone,
  );
}

/**
 * The part of a spec that tests the records read before per rolls them up: where, in its zone, and the fields per
 * lists (a misspelt one is refused with the records' names, as where's are).
 */
const firstSpec = (spec: ComputeSpec | undefined, per: PerGroups | undefined): ComputeSpec => ({
  ...(spec?.where ? { where: spec.where, ...(spec.zone ? { zone: spec.zone } : {}) } : {}),
  ...(per?.listed.length ? { reads: per.listed.map(perNamedField) } : {}),
  // join's row is the records', before where tests them (records/kept-join.ts).
  ...(spec?.join ? { join: spec.join } : {}),
  // count_by's, for per's rows (joined-answer.ts parses it again): with the values read for its in result(…).
  ...(spec?.keptConditions ? { keptConditions: spec.keptConditions } : {}),
});

export interface Route {
  input: MarketoApiCallInput;
  checked: CheckedPath;
  marketo: MarketoConnector;
  ctx: ToolContext;
  onWait: OnWait;
  seen: ReadSoFar;
  byType: ProgramTypeFilter | undefined;
  upload: MarketoUpload | undefined;
  /** The cursor's position: in a file, or in pages. */
  from: FilePosition | undefined;
  resume: ResumePosition | undefined;
  file: boolean;
  spec: ComputeSpec | undefined;
  /** An endpoint with a {placeholder}, read once per id (fan-out.ts). */
  fan?: FanOut | undefined;
}

/** Activity reads: activityTypeIds as ids, and the naming of each record. */
async function activities(route: Route, compute: RecordCompute | undefined): Promise<ActivityRead> {
  const { input, marketo, ctx, onWait } = route;
  if (!isActivityRead(input.method, route.checked.value)) return { input };
  const reader = { marketo, signal: ctx.signal, onWait };
  if (route.file) return { input, naming: activityNaming(await activityTypes(reader), reader) };
  const { query, types, ids } = await activityQuery(input.query_parameters, reader);
  const pairer = await activityPairs(input, { ids, types }, async (value, field) => {
    const named = await typeIds(value, reader, field);
    return named.ids;
  });
  // A grouped read counts 0 only the types of the groups it read whole (activity-groups.ts).
  if (ids && !isGroupedRead(route.checked.value, ids)) compute?.expectValues(askedTypes(ids, types.names));
  const rewritten = asWritten({ ...input, query_parameters: query }, input);
  return {
    input: rewritten,
    naming: activityNaming(types, reader),
    ...(ids ? { ids } : {}),
    ...(pairer ? { pairer } : {}),
  };
}

interface ActivityRead {
  input: MarketoApiCallInput;
  naming?: ActivityNaming;
  ids?: number[];
  /** With `previous` or `next`: what pairs each record with the activity before or after it (activity-pairs.ts). */
  pairer?: ActivityPairs;
}

export async function readRoute(route: Route): Promise<ReadAnswer> {
  const reader = { marketo: route.marketo, signal: route.ctx.signal, onWait: route.onWait };
  // A lead's memberships are named as they are read, so that where, order_by and count_by take the names.
  const label = membershipLabeler(route.input, route.checked.value, reader);
  return nameMemberships(await readRecords(route, label), label);
}

async function readRecords(route: Route, label: Labeler | undefined): Promise<ReadAnswer> {
  const { marketo, ctx, onWait, spec } = route;
  // previous adds fields to the records as they are read, as where and count_by read them (compute-read.ts).
  // With per, this compute tests where on the records read; the rest runs over per's rows (joined-answer.ts).
  const per = perGroups(route);
  if (per) checkPerFields(spec, per);
  const compute =
    spec || route.input.previous || route.input.next || route.input.lead_fields || per
      ? new RecordCompute(per ? firstSpec(spec, per) : (spec ?? {}))
      : undefined;
  keepCounted(route.input.keep_counted, ctx, compute);
  // lead_fields adds each record's lead as it is read, before where and count_by see it (lead-join.ts).
  const leads = leadJoin(route.input, { marketo, signal: ctx.signal, onWait });
  if (isExportThen(route.input)) {
    return exportThen(route.input, {
      marketo,
      ctx,
      onWait,
      spec,
      per,
      // Without per too: lead_fields reads only the leads of rows where's lead-free part keeps (export-then.ts).
      first: firstSpec(spec, per),
      leads,
    });
  }
  if (route.input.run_to_completion) {
    return runExport(route.input, marketo, ctx, onWait, compute ?? new RecordCompute({}));
  }
  // Named as they are read only when where, order_by or count_by take the name; else named after.
  const named =
    label && compute && namedFields(compute.spec).some(({ field }) => field === label.column)
      ? label
      : undefined;
  // Reads joined after they end check the fields first, so a misspelt one costs one call, not the read (review s33, 14).
  if (route.fan) {
    await leads?.check();
    return fanOutRead(route.input, marketo, ctx, {
      fan: route.fan,
      onWait,
      compute,
      per,
      leads,
      label: named,
    });
  }
  const { input, naming, ids, pairer } = await activities(route, compute);
  const path = route.checked;
  if (ids && isGroupedRead(path.value, ids)) {
    await leads?.check();
    return groupedActivities(input, marketo, ctx, { path, ids, onWait, compute, naming, pairer, per, leads });
  }
  if (route.file) return readFile(input, marketo, ctx, { path, from: route.from, onWait, compute, naming });
  if (compute) {
    return computeRead(input, marketo, ctx, {
      path,
      resume: route.resume,
      byType: route.byType,
      onWait,
      compute,
      naming,
      pairer,
      per,
      leads,
      label: named,
    });
  }
  return readCalls(input, marketo, ctx, {
    path,
    resume: route.resume,
    seen: route.seen,
    byType: route.byType,
    upload: route.upload,
    onWait,
    naming,
  });
}
