import { SCOPE_ANALYTICS_EDIT, SCOPE_ANALYTICS_READONLY } from "../auth/google/config.js";
import { GoogleApiCallFields, GoogleApiCallOutput } from "../schemas/google-analytics-admin.js";
import { withAccount } from "./ga/account-field.js";
import { GOOGLE_API_CALL_ALIASES } from "./ga/api-call-aliases.js";
import { callNotes, checkApiCall, snakeCaseMask } from "./ga/api-call-checks.js";
import { type PagedBody, pageBody, skipOf } from "./ga/api-call-paging.js";
import { propertiesAsked, readEach } from "./ga/api-call-properties.js";
import { withheldWords, withoutSecrets } from "./ga/api-call-secrets.js";
import { compatibilityAnswer } from "./ga/compatibility-answer.js";
import { metadataNames } from "./ga/metadata-names.js";
import { customDefinitionWords } from "./ga/metadata-words.js";
import { GA_SERVICE_WORDS } from "./ga/service-words.js";
import { jsonSize } from "./output-cap.js";
import type { SchemaContext, ToolStep } from "./types.js";

// The step's reference (docUrl, the manifest's and the console's link) is the Admin API's; the Data API's is
// https://developers.google.com/analytics/devguides/reporting/data/v1/rest. The tool list spends no tokens on either.
const DOC_URL = "https://developers.google.com/analytics/devguides/config/admin/v1/rest";
const SCOPES = [SCOPE_ANALYTICS_READONLY, SCOPE_ANALYTICS_EDIT] as const;

const input = (context: SchemaContext) => withAccount(context, GoogleApiCallFields);

export const googleAnalyticsApiCall: ToolStep<ReturnType<typeof input>, typeof GoogleApiCallOutput> = {
  id: "google_analytics_api_call",
  title: "Google Analytics API Call",
  service: "google_analytics",
  serviceWords: GA_SERVICE_WORDS,
  category: "Analytics",
  keywords: [
    "analytics",
    "google analytics",
    "ga4",
    "api call",
    "admin api",
    "data api",
    "accounts",
    "properties",
    "data streams",
    "custom dimensions",
    "key events",
    "pivot report",
    "batch reports",
    "metadata",
  ],
  description:
    "Calls any Google Analytics 4 Data API or Admin API v1beta endpoint: list " +
    "accounts and properties, manage data streams, custom dimensions or key events, run pivot or batch reports, " +
    "read metadata, when no dedicated GA step covers the task.",
  docUrl: DOC_URL,
  connection: "google",
  scopes: SCOPES,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  input,
  aliases: GOOGLE_API_CALL_ALIASES,
  output: GoogleApiCallOutput,
  examples: () => [
    {
      title: "List your accounts and properties",
      input: { method: "GET", endpoint: "v1beta/accountSummaries" },
    },
  ],

  async handler(input, ctx) {
    checkApiCall(input);
    const { fields, note } = snakeCaseMask(input);
    // A cursor of another request is refused before anything is sent.
    skipOf(fields);
    const ga = await ctx.connection("google", fields.account);
    const asked = propertiesAsked(fields);
    const each = asked === undefined ? undefined : await readEach(ga, fields, asked, ctx.signal);
    const result =
      each ??
      (await ga.call({
        method: fields.method,
        path: fields.endpoint,
        ...(fields.api ? { api: fields.api } : {}),
        ...(fields.query_parameters ? { query: fields.query_parameters } : {}),
        ...(fields.body !== undefined ? { body: fields.body } : {}),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      }));
    // Google answers a JSON object (an empty one for a DELETE); anything else is shown as it came.
    const secret = withoutSecrets(result.body === undefined || result.body === null ? {} : result.body);
    // A compatibility check's answer, cut to names (compatibility-answer.ts): 40,000 characters for a yes or no.
    const compatible = compatibilityAnswer(fields.endpoint, secret.body, fields.body);
    const body = compatible.body;
    const names = namesOnly(fields, body, ctx.fullResults?.maxBytes);
    const paged = names ?? pageBody(fields, body, { keepBytes: ctx.fullResults?.maxBytes });
    const custom = customDefinitionWords(body);
    const data: GoogleApiCallOutput = {
      api: result.api,
      body: paged.body as GoogleApiCallOutput["body"],
      ...(paged.nextCursor ? { next_cursor: paged.nextCursor } : {}),
      warnings: [
        ...(note ? [note] : []),
        ...callNotes(fields),
        ...paged.warnings,
        ...(secret.withheld > 0 ? [withheldWords(secret.withheld)] : []),
      ],
    };
    return {
      data,
      summary:
        `${fields.method} ${fields.endpoint} (${result.api} API): ${describe(body, fields.method, paged.part)}` +
        `${each ? `, ${each.summary}` : ""}.${custom ? ` ${custom}.` : ""}` +
        (compatible.words ? ` ${compatible.words}.` : ""),
      ...(paged.full ? { full: paged.full } : {}),
    };
  },
};

/**
 * One property's metadata as names when its whole answer can be kept beside them (metadata-names.ts); not on a
 * cursor's read (it resumes Google's own lists) nor where nothing is kept (the CLI: the answer is all there is).
 */
function namesOnly(
  fields: GoogleApiCallFields,
  body: unknown,
  keepBytes: number | undefined,
): PagedBody | undefined {
  if (keepBytes === undefined || fields.cursor !== undefined || fields.method !== "GET") return undefined;
  const names = metadataNames(body);
  if (!names || jsonSize(names.full.items) > keepBytes) return undefined;
  return { body: names.body, warnings: [names.words], full: names.full };
}

/**
 * What Google answered: its lists' sizes, and of a list shown in part, which of its items this answer holds.
 * Google leaves an empty list out of a list answer (proto3 JSON omits empty repeated fields, so a list
 * call with nothing to list answers {}: https://protobuf.dev/programming-guides/json/), and a DELETE
 * answers Empty ({}). Neither is "1 object".
 */
/** A list's key for one item: "1 result", "1 accountSummary". */
const singular = (key: string) => key.replace(/ies$/, "y").replace(/s$/, "");

function describe(body: unknown, method: string, part: PagedBody["part"]): string {
  if (body === null || typeof body !== "object") return "no JSON body";
  if (Object.keys(body).length === 0) {
    return method === "GET"
      ? "no items (Google answered {}: an empty list is left out)"
      : "done (Google answered {})";
  }
  const lists = Object.entries(body).filter(([, value]) => Array.isArray(value)) as [string, unknown[]][];
  if (lists.length === 0) return "1 object";
  const n = (value: number) => value.toLocaleString("en-US");
  return lists
    .map(([key, list]) =>
      part?.list === key
        ? `${key} ${n(part.first + 1)}–${n(part.first + part.shown)} of the ${n(list.length)} Google answered`
        : `${n(list.length)} ${list.length === 1 ? singular(key) : key}`,
    )
    .join(", ");
}
