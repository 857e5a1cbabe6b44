import { z } from "zod";

const QueryScalar = z.union([z.string(), z.number(), z.boolean()]);

export const MarketoApiCallInput = z.strictObject({
  method: z
    .enum(["GET", "POST", "DELETE"])
    .describe(
      "HTTP method. GET reads, POST creates, updates or triggers, DELETE removes (for example leads from a list).",
    ),
  endpoint: z
    .string()
    .min(1)
    .max(2048)
    .describe(
      "Request path beginning with /rest, as in Marketo's REST reference, e.g. /rest/v1/leads.json, " +
        "/rest/v1/lists/1001/leads.json, /rest/v1/campaigns/1001/trigger.json or /rest/asset/v1/programs.json. " +
        "Only the path: no host, no query string.",
    ),
  query_parameters: z
    .record(z.string().min(1).max(100), z.union([QueryScalar, z.array(QueryScalar).max(300)]))
    .optional()
    .describe(
      'Query string parameters, e.g. {"filterType":"email","filterValues":"a@example.com"}. ' +
        "Arrays are sent comma-separated (Marketo's convention for filterValues, fields, id).",
    ),
  body: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'JSON request body, for POST only, e.g. {"input":{"leads":[{"id":318592}]}} to trigger a campaign. ' +
        "Asset API (/rest/asset/) POSTs are sent form-encoded from the same object.",
    ),
  paginate: z
    .boolean()
    .default(false)
    .describe(
      "Follow nextPageToken (or offset/maxReturn for /rest/asset/ endpoints) and return all pages, up to max_pages and max_items. " +
        "When more remain, next_page_token (or next_offset) lets you resume.",
    ),
  max_pages: z
    .int()
    .min(1)
    .max(200)
    .default(20)
    .describe("With paginate: the most pages to fetch in this call (each page is one API call). Default 20."),
  max_items: z
    .int()
    .min(1)
    .max(100_000)
    .default(5_000)
    .describe("With paginate: the most records to return in this call. Default 5,000."),
});
export type MarketoApiCallInput = z.output<typeof MarketoApiCallInput>;

const MarketoReason = z.object({
  code: z.string().describe("Marketo record-level code, e.g. 1004 (lead not found)."),
  message: z.string().describe("Marketo's explanation."),
});

export const MarketoApiCallOutput = z.object({
  result: z
    .array(z.unknown())
    .describe("The Marketo `result` records, all pages concatenated when paginating."),
  complete: z
    .boolean()
    .describe(
      "False when more records remain or output was capped: resume with next_page_token or next_offset.",
    ),
  next_page_token: z.string().optional().describe("Pass back as query_parameters.nextPageToken to continue."),
  next_offset: z.int().optional().describe("Asset API: pass back as query_parameters.offset to continue."),
  warnings: z.array(z.string()).describe("Warnings from Marketo and from this tool (translations, caps)."),
  record_errors: z
    .array(
      z.object({
        index: z.int().describe("Position of the record in the request input (or in the result)."),
        id: z.int().optional().describe("Record id, when Marketo returned one."),
        status: z.string().describe("Record status, e.g. skipped."),
        reasons: z.array(MarketoReason).describe("Why the record was not processed."),
      }),
    )
    .describe("Records Marketo skipped, with reasons. The call as a whole succeeded."),
  pages: z.int().describe("Pages fetched."),
  calls_used: z.int().describe("Marketo API calls this step spent (counted against the daily quota)."),
  daily_calls_remaining: z.int().optional().describe("Calls left today under the configured daily quota."),
  request_ids: z.array(z.string()).describe("Marketo requestId of each call, for Marketo support."),
  translated_from: z
    .string()
    .optional()
    .describe("Set when the endpoint was translated to the real Marketo endpoint."),
  extra: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("Other top-level fields of Marketo's response."),
});
export type MarketoApiCallOutput = z.output<typeof MarketoApiCallOutput>;
