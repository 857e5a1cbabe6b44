import { checkEndpoint } from "../connectors/endpoint-guard.js";
import { ENDPOINT_RULES } from "../connectors/marketo/index.js";
import { isAssetPaging } from "../connectors/marketo/pagination.js";
import type { MarketoCallResult } from "../connectors/marketo/types.js";
import { ValidationError } from "../errors.js";
import { MarketoApiCallInput, MarketoApiCallOutput } from "../schemas/marketo.js";
import { API_CALL_ALIASES } from "./input/api-call.js";
import { programTypeFilter } from "./marketo/program-type.js";
import { capItems, MAX_RESULT_BYTES } from "./output-cap.js";
import type { ToolStep } from "./types.js";

const DOC_URL = "https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/rest-api";

export const marketoApiCall: ToolStep<typeof MarketoApiCallInput, typeof MarketoApiCallOutput> = {
  id: "marketo_api_call",
  title: "Marketo API Call",
  service: "marketo",
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
    "Calls any Adobe Marketo Engage REST endpoint (leads, lists, smart campaigns, programs, emails, activities) with " +
    "the workspace's Marketo credentials. Authentication, Marketo's rate limits (100 calls per 20 s, 10 at once, daily " +
    "quota) and pagination are handled for you. Use it to look up or upsert leads, read or change static list membership, " +
    "trigger or schedule campaigns, and read assets or activity feeds. Reference: " +
    DOC_URL,
  docUrl: DOC_URL,
  connection: "marketo",
  scopes: [],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  input: () => MarketoApiCallInput,
  aliases: API_CALL_ALIASES,
  output: MarketoApiCallOutput,

  async handler(input, ctx) {
    // Refuse a dangerous endpoint before anything else, even before the connection is resolved.
    const path = checkEndpoint(input.endpoint, ENDPOINT_RULES);
    const byType = programTypeFilter(input.method, path, input.query_parameters);
    if (input.body !== undefined && input.method !== "POST") {
      throw new ValidationError("body", `a body is only sent with POST, not ${input.method}.`, {
        hint: 'Move the values into query_parameters (for DELETE of list members: {"id":[1,2]}), or use POST.',
      });
    }
    const marketo = await ctx.marketo();
    let fetched = 0;
    const result = await marketo.call({
      method: input.method,
      path: input.endpoint,
      query: byType ? byType.query : input.query_parameters,
      body: input.body,
      signal: ctx.signal,
      onWait: ({ reason, waitMs }) =>
        ctx.progress({
          progress: fetched,
          message: `Waiting ${Math.ceil(waitMs / 1000)} s for Marketo's ${reason.replace("_", " ")} limit`,
        }),
      paginate: input.paginate
        ? {
            maxPages: input.max_pages,
            maxItems: input.max_items,
            maxBytes: MAX_RESULT_BYTES,
            // One unit throughout: records fetched (waits report the same count).
            onPage: ({ page, items }) => {
              fetched = items;
              ctx.progress({
                progress: items,
                total: input.max_items,
                message: `Fetched page ${page} (${items} records)`,
              });
            },
          }
        : false,
    });

    const warnings = [...result.warnings];
    const records = byType ? result.result.filter(byType.keeps) : result.result;
    if (byType) warnings.push(byType.warning(result.result.length, records.length));
    const capped = capItems(records);
    // Offsets count what Marketo returned, filtered out or not: resume after the last record shown.
    const consumed = byType ? result.result.indexOf(capped.items.at(-1)) + 1 : capped.items.length;
    const resume =
      capped.dropped > 0
        ? resumeAfterCap(
            input,
            result,
            { shown: capped.items.length, of: records.length, consumed },
            warnings,
          )
        : result;
    const usage = await marketo.usage();
    const data: MarketoApiCallOutput = {
      result: capped.items,
      complete: result.complete && capped.dropped === 0,
      ...(resume.nextPageToken ? { next_page_token: resume.nextPageToken } : {}),
      ...(resume.nextOffset !== undefined ? { next_offset: resume.nextOffset } : {}),
      warnings,
      record_errors: result.recordErrors,
      pages: result.pages,
      calls_used: result.callsUsed,
      daily_calls_remaining: usage.remaining,
      request_ids: result.requestIds,
      ...(result.translatedFrom ? { translated_from: result.translatedFrom } : {}),
      ...(Object.keys(result.extra).length > 0 ? { extra: result.extra } : {}),
    };
    return { data, summary: summarize(input.method, input.endpoint, data) };
  },
};

/**
 * Where to resume when records of a page had to be dropped to fit the output. The connector keeps
 * whole pages within the same cap, so only a single page can be cut, and Marketo's next token or
 * offset would skip its dropped records: asset pages resume exactly at offset + shown; a token page
 * cannot resume mid-page, so no token is given and the warning says how to re-read it in smaller pages.
 */
function resumeAfterCap(
  input: MarketoApiCallInput,
  result: MarketoCallResult,
  { shown, of, consumed }: { shown: number; of: number; consumed: number },
  warnings: string[],
): Pick<MarketoCallResult, "nextPageToken" | "nextOffset"> {
  const cap = `Output capped at ${MAX_RESULT_BYTES / 1000} KB: ${shown} of ${of} records shown.`;
  delete result.extra.lastPageToken;
  if (isAssetPaging({ method: input.method, path: input.endpoint })) {
    const nextOffset = (Number(input.query_parameters?.offset) || 0) + consumed;
    warnings.push(`${cap} Continue with query_parameters.offset ${nextOffset} (and a smaller maxReturn).`);
    return { nextOffset };
  }
  const token = input.query_parameters?.nextPageToken;
  warnings.push(
    `${cap} Marketo pages cannot be resumed part-way, so no next_page_token is given: re-read this page ` +
      `with batchSize ${Math.max(1, shown)}${typeof token === "string" ? ` from nextPageToken ${token}` : ""} ` +
      "and paginate (its first records repeat those shown), or ask for fewer fields.",
  );
  return {};
}

function summarize(method: string, endpoint: string, data: MarketoApiCallOutput): string {
  const parts = [
    `${method} ${endpoint}: ${data.result.length} record${data.result.length === 1 ? "" : "s"}`,
    `${data.pages} page${data.pages === 1 ? "" : "s"}, ${data.calls_used} call${data.calls_used === 1 ? "" : "s"}`,
  ];
  if (data.record_errors.length > 0) parts.push(`${data.record_errors.length} record(s) skipped`);
  if (data.next_page_token) parts.push("more available (next_page_token)");
  if (data.next_offset !== undefined) parts.push(`more available (next_offset ${data.next_offset})`);
  if (data.translated_from) parts.push(`translated from ${data.translated_from}`);
  return `${parts.join("; ")}.`;
}
