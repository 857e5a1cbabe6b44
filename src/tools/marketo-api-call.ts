import { BULK_FILE } from "../connectors/marketo/file-answer.js";
import { isIgnoredQueryWarning } from "../connectors/marketo/real-paths.js";
import { recipesInBrief } from "../connectors/marketo/recipes.js";
import { checkMarketoPath, checkMarketoQuery } from "../connectors/marketo/url.js";
import { UpstreamError, ValidationError, withoutHint } from "../errors.js";
import { MarketoApiCallInput, MarketoApiCallOutput } from "../schemas/marketo.js";
import { checkCursorPlaces, checkPairPaths } from "./marketo/activity-pairs.js";
import { checkPrevious } from "./marketo/activity-previous.js";
import { isLateStartWarning } from "./marketo/activity-start.js";
import { MARKETO_ANSWERS } from "./marketo/answers.js";
import { MARKETO_API_CALL_ALIASES } from "./marketo/api-call-aliases.js";
import { campaignCall, campaignTarget } from "./marketo/campaign-target.js";
import { dailyUsage } from "./marketo/daily-usage.js";
import { zonedDates } from "./marketo/date-bounds.js";
import { forgetExports } from "./marketo/export-reuse.js";
import { checkRunToCompletion } from "./marketo/export-run.js";
import { checkFanOut } from "./marketo/fan-out.js";
import { checkFilterValues } from "./marketo/filter-values.js";
import { withLeadFieldsAdvice } from "./marketo/lead-fields-advice.js";
import { checkLeadFields, checkLeadPaths } from "./marketo/lead-join.js";
import { exactFilterWords, nearNames } from "./marketo/near-names.js";
import { pathReaders, type SpentRead, whereReadWords } from "./marketo/path-read.js";
import { positionOf } from "./marketo/position.js";
import { programTypeFilter } from "./marketo/program-type.js";
import { type ReadAnswer, type ReadSoFar, readSoFarWords } from "./marketo/read-calls.js";
import {
  checkComputable,
  checkPer,
  checkPerContainers,
  readRoute,
  WHERE_HINT,
} from "./marketo/read-route.js";
import { withSearchableFields } from "./marketo/searchable-fields.js";
import { summarize, triggerSummary } from "./marketo/summary.js";
import { MARKETO_TASKS } from "./marketo/tasks.js";
import { uploadOf } from "./marketo/upload.js";
import { compactWrite } from "./marketo/write-answer.js";
import { type ComputeSpec, computeSpec, namedFields } from "./records/compute.js";
import { checkKeptLinks, type KeptJoin, keptJoin, withJoinedColumn } from "./records/kept-join.js";
import {
  checkHeldWhere,
  heldConditions,
  heldPlaces,
  keptConditions,
  keptLists,
} from "./records/kept-lists.js";
import { perNamed } from "./records/per.js";
import type { ToolContext, ToolResult, ToolStep } from "./types.js";

const DOC_URL = "https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/rest-api";

/** Progress and log entries while a call waits for Marketo's limits, saying how far the read got. */
function waitReporter(ctx: ToolContext, seen: ReadSoFar) {
  return ({ reason, waitMs }: { reason: string; waitMs: number }) => {
    const waiting = `Waiting ${Math.ceil(waitMs / 1000)} s for Marketo's ${reason.replace("_", " ")} limit`;
    // Between pages, say how far the read got: a wait alone reads as if nothing happened.
    const message = seen.page > 0 ? `${readSoFarWords(seen)}. ${waiting}` : waiting;
    ctx.progress({ progress: seen.items, message });
    // A backoff follows a failure Marketo asked us to retry (606, 615, 5xx...): worth a warning.
    ctx.log?.({
      level: reason === "backoff" ? "warning" : "info",
      message,
      data: { reason, wait_ms: waitMs },
    });
  };
}

/**
 * A parameter Marketo ignores, and a first activity long after the start, are said at the top instead of
 * under the records, where an agent missed them (trial s19, N211: all 188 members read as the three asked for;
 * review s20, finding 10): taken out of the warnings, for the summary.
 */
function liftWarnings(data: MarketoApiCallOutput): string[] {
  const lifted = data.warnings.filter((w) => isIgnoredQueryWarning(w) || isLateStartWarning(w));
  data.warnings = data.warnings.filter((w) => !lifted.includes(w));
  return lifted;
}

/**
 * A refusal says the window sent, before its hint: an end date read to the end of its day made a 31-day pair
 * 32 days, and the refusal did not say why (review s20, finding 8).
 */
function withDateWords(error: unknown, dateWords: string | undefined): unknown {
  // Marketo's refusals only: a refusal of the step's own (an order_by, a where) has nothing to do with dates.
  if (!dateWords || !(error instanceof UpstreamError)) return error;
  const hint = error.hint;
  error.message = `${withoutHint(error)} ${dateWords}${hint ? ` ${hint}` : ""}`;
  return error;
}

export const marketoApiCall: ToolStep<typeof MarketoApiCallInput, typeof MarketoApiCallOutput> = {
  id: "marketo_api_call",
  title: "Marketo API Call",
  service: "marketo",
  serviceWords: "Adobe Marketo Engage",
  category: "Marketing automation",
  keywords: [
    "marketing automation",
    "marketo",
    "adobe marketo engage",
    "leads",
    "lead database",
    "smart campaigns",
    "campaign",
    "email",
    "programs",
    "static lists",
    "activities",
    "rest api",
  ],
  description:
    // The reference is the step's docUrl (the manifest's and the console's link), not words of the tool list.
    "Calls any Adobe Marketo Engage REST or bulk endpoint (auth, limits and paging handled). " +
    recipesInBrief(),
  docUrl: DOC_URL,
  connection: "marketo",
  scopes: [],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  input: () => MarketoApiCallInput,
  aliases: MARKETO_API_CALL_ALIASES,
  output: MarketoApiCallOutput,
  examples: (now) => [
    {
      // https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads#query
      title: "Look up a lead by email",
      input: {
        method: "GET",
        endpoint: "/rest/v1/leads.json",
        query_parameters: { filterType: "email", filterValues: "lead7@example.com" },
      },
    },
    {
      // https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/static-lists
      title: "Add leads to a static list",
      note: "Put your list's ID in the endpoint (in Marketo, the number in the list's URL) and your leads' IDs in the body.",
      input: {
        method: "POST",
        endpoint: "/rest/v1/lists/1001/leads.json",
        body: { input: [{ id: 7 }, { id: 3 }] },
      },
    },
    {
      // https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/smart-campaigns
      title: "Trigger a smart campaign",
      note: 'Put the ID of a requestable trigger campaign ("Campaign is Requested", source Web Service API) in the endpoint.',
      input: {
        method: "POST",
        endpoint: "/rest/v1/campaigns/1001/trigger.json",
        body: { input: { leads: [{ id: 7 }] } },
      },
    },
    {
      // https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-lead-extract
      // (createdAt spans at most 31 days); then enqueue the job, poll its status and read its file.
      title: "Export leads created this month",
      note: "This creates the export job: then POST …/export/{exportId}/enqueue.json, GET …/status.json until Completed, and GET …/file.json.",
      input: {
        method: "POST",
        endpoint: "/bulk/v1/leads/export/create.json",
        body: {
          fields: ["id", "email", "firstName", "lastName", "createdAt"],
          format: "CSV",
          filter: {
            createdAt: {
              startAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
              endAt: now.toISOString(),
            },
          },
        },
      },
    },
  ],

  tasks: MARKETO_TASKS,
  answers: MARKETO_ANSWERS,

  async handler(given, ctx) {
    // Refuse a dangerous endpoint before anything else, even before the connection is resolved.
    // The call's one guard check: the connector takes this checked path and does not check it again.
    const checked = checkMarketoPath(given.endpoint);
    // Dates in time_zone become the instants sent (a wrong offset is refused here); the rest reads this input.
    const { input, words: dateWords } = zonedDates(given);
    const path = checked.value;
    const byType = programTypeFilter(input.method, path, input.query_parameters);
    if (input.body !== undefined && input.method !== "POST") {
      throw new ValidationError("body", `a body is only sent with POST, not ${input.method}.`, {
        hint: 'Move the values into query_parameters (for DELETE of list members: {"id":[1,2]}), or use POST.',
      });
    }
    const upload = uploadOf(input, path);
    const position = positionOf(input);
    const file = input.method === "GET" && BULK_FILE.test(path);
    if (position && "file" in position !== file) {
      throw new ValidationError(
        "cursor",
        "it belongs to another request: give the same method, endpoint and query_parameters.",
      );
    }
    const { join, paths, ...kept } = await keptInputs(input, ctx, { path, file, zone: given.time_zone });
    const { fan, spec } = checkedWith(input, { join, ...kept }, path, file);
    const marketo = await ctx.connection("marketo");
    // A write may change what a kept export holds (export-reuse.ts): the next export run reads Marketo again.
    if (input.method !== "GET" && !input.run_to_completion) forgetExports(marketo);
    const seen: ReadSoFar = { page: 0, items: 0 };
    const requestedAt = new Date();
    const read = await readRoute({
      input,
      checked,
      marketo,
      ctx,
      onWait: waitReporter(ctx, seen),
      seen,
      byType,
      upload,
      from: position && "file" in position ? position.file : undefined,
      resume: position && "page" in position ? position.page : undefined,
      file,
      spec,
      fan,
    }).catch(async (error: unknown) => {
      const advised = withLeadFieldsAdvice(
        await withSearchableFields(error, marketo, input, ctx.signal),
        input,
      );
      throw withDateWords(advised, dateWords);
    });
    const campaign = campaignCall(input);
    const target = campaign
      ? ` ${await campaignTarget(marketo, campaign, ctx.signal)}`
      : await nearNames(marketo, input, read.data.result.length, ctx.signal).then((near) => {
          const words = near ?? exactFilterWords(input, read.data.result.length);
          return words ? ` ${words}` : "";
        });
    const usage = await dailyUsage(marketo, ctx);
    const data = withSpent(read.data, paths, usage);
    const summary =
      read.summary ??
      (triggerSummary(input, requestedAt) ?? summarize(input, data, read.counts, read.described, file)) +
        target;
    return finished(input, ctx, {
      data,
      read: join ? joinedColumns(read) : read,
      summary,
      tail: [
        whereReadWords(paths),
        join?.words(file || input.run_to_completion ? "row" : "record"),
        dateWords,
        "note" in usage ? usage.note : undefined,
      ],
    });
  },
};

/** The answer's data with the calls and request ids of the paths read for it, and the day's calls left. */
function withSpent(
  data: MarketoApiCallOutput,
  paths: readonly SpentRead[],
  usage: Awaited<ReturnType<typeof dailyUsage>>,
): MarketoApiCallOutput {
  const spent = {
    calls_used: paths.reduce((sum, path) => sum + path.calls, data.calls_used),
    request_ids: [...data.request_ids, ...paths.flatMap((path) => path.requestIds)],
  };
  return "remaining" in usage
    ? { ...data, ...spent, daily_calls_remaining: usage.remaining }
    : { ...data, ...spent, warnings: [...data.warnings, usage.note] };
}

/**
 * The answer as it goes out: a write's statuses listed by their exceptions (write-answer.ts), and the summary
 * followed by where added names came from, what that listing left out, the warnings lifted into it, and `tail`.
 */
function finished(
  input: MarketoApiCallInput,
  ctx: ToolContext,
  o: { data: MarketoApiCallOutput; read: ReadAnswer; summary: string; tail: (string | undefined)[] },
): ToolResult<MarketoApiCallOutput> {
  const lifted = liftWarnings(o.data);
  const written = compactWrite(input, { data: o.data, full: o.read.full }, ctx);
  const notes = o.read.notes?.map((note) => `Names: ${note}.`) ?? [];
  const said = [o.summary, ...notes, written.words, ...lifted, ...o.tail].filter(Boolean).join(" ");
  return {
    data: written.data,
    summary: said,
    ...(written.full ? { full: written.full } : {}),
    ...(o.read.also ? { also: o.read.also } : {}),
    ...(o.read.columns ? { columns: o.read.columns } : {}),
  };
}

/**
 * What the inputs take from kept results (or paths read whole): where's in result(…) values, read before where is
 * parsed (its words keep the text given), and join's rows. The call's own inputs are checked first, where's
 * references held by lists of their length, so that a refusal spends no call on a path (review s46, 3).
 */
async function keptInputs(
  input: MarketoApiCallInput,
  ctx: ToolContext,
  at: { path: string; file: boolean; zone: string | undefined },
) {
  checkHeldWhere(input.where, WHERE_HINT);
  const held = { where: heldPlaces(input.where), count_by: heldConditions(input.count_by) };
  if (held.where !== undefined || held.count_by !== undefined || input.join !== undefined) {
    checkedInputs({ ...input, where: held.where ?? input.where }, at.path, at.file, undefined, held.count_by);
    checkComputable(input); // join alone is a computed read's too: not on a write (review s47, 3)
    checkMarketoQuery(input.query_parameters);
  }
  // A path in place of a link is read whole by this step itself (marketo/path-read.ts).
  const { spent, reader } = pathReaders((read, on) => marketoApiCall.handler(read, on), ctx, at.zone);
  // Each kept result read once a call: checkKeptLinks looks them up before the paths, the readers after.
  const read = new Map<string, ReturnType<NonNullable<ToolContext["keptItems"]>>>();
  const own = ctx.keptItems?.bind(ctx);
  const kept =
    own &&
    ((id: string) => {
      const got = read.get(id) ?? own(id);
      read.set(id, got);
      return got;
    });
  await checkKeptLinks(input, kept);
  const expanded = await keptLists(input.where, kept, reader("where"));
  const conditions = await keptConditions(input.count_by, kept, reader("count_by"));
  return { expanded, conditions, join: await keptJoin(input.join, kept, reader("join")), paths: spent };
}

/** checkedInputs over what kept results gave: where's and count_by's values in place, where's words as given. */
function checkedWith(
  input: MarketoApiCallInput,
  kept: {
    expanded?: string | undefined;
    join?: KeptJoin | undefined;
    conditions?: ReadonlyMap<string, string> | undefined;
  },
  path: string,
  file: boolean,
) {
  const { expanded, join, conditions } = kept;
  const checked = checkedInputs(
    expanded ? { ...input, where: expanded } : input,
    path,
    file,
    join,
    conditions,
  );
  if (expanded && checked.spec?.where) checked.spec.where.text = input.where ?? expanded;
  return checked;
}

/** A read's tables with the column join added, where their columns are given (a file's header). */
function joinedColumns(read: ReadAnswer): ReadAnswer {
  const full = read.full && { ...read.full, columns: withJoinedColumn(read.full.columns, read.full.items) };
  const columns = withJoinedColumn(read.columns, read.data.result);
  return { ...read, ...(full ? { full } : {}), ...(columns ? { columns } : {}) };
}

/** The fields a read takes one value a record of: order_by and limit per over records, per, count_distinct. */
function oneValueUses(
  input: MarketoApiCallInput,
  spec: ComputeSpec | undefined,
): { input: string; field: string }[] {
  const overRecords = spec?.countBy === undefined;
  return [
    ...(overRecords ? (spec?.order ?? []).map(({ field }) => ({ input: "order_by", field })) : []),
    ...(overRecords ? (spec?.each?.fields ?? []).map((field) => ({ input: "limit", field })) : []),
    ...(spec?.distinct ? [{ input: "count_distinct", field: spec.distinct }] : []),
    // Each of per's keys ("leadId & joined.x") and listed fields (review s50, 3: split on "," only).
    ...perNamed(input.per).map(({ field }) => ({ input: "per", field })),
  ];
}

/** The checks of the step's own inputs, before anything is sent; the fan-out and the computing they give. */
function checkedInputs(
  input: MarketoApiCallInput,
  path: string,
  file: boolean,
  join: KeptJoin | undefined,
  /** count_by's conditions with `in result(…)`, by their text as written: that text with the values in place. */
  conditions?: ReadonlyMap<string, string>,
) {
  checkCursorPlaces(input);
  if (input.run_to_completion) checkRunToCompletion(input);
  checkFilterValues(input);
  checkPrevious(input, path);
  checkPer(input, file);
  checkPerContainers(input, path);
  checkLeadFields(input, path, file);
  const fan = checkFanOut(input, path, file);
  const computed = computeSpec(input, WHERE_HINT, conditions);
  const spec = join ? { ...computed, join } : computed;
  join?.refuseOneValue(oneValueUses(input, computed));
  if (spec) checkComputable(input);
  const named = spec ? namedFields(spec) : [];
  checkLeadPaths(input, path, file, named);
  checkPairPaths(input, named);
  return { fan, spec };
}
