import { z } from "zod";
import { cursorInput, QueryScalar } from "./common.js";
import { MARKETO_ENDPOINT_PATTERN } from "./patterns.js";

export const MarketoApiCallInput = z.strictObject({
  method: z
    .enum(["GET", "POST", "DELETE"])
    .describe(
      "HTTP method. GET reads, POST creates, updates or triggers, DELETE removes (for example leads from a list).",
    )
    .meta({ title: "Method", examples: ["GET"] }),
  endpoint: z
    .string()
    .min(1)
    .max(2048)
    .describe(
      "Request path beginning with /rest or /bulk, as in Marketo's REST reference, e.g. /rest/v1/leads.json, " +
        "/rest/v1/lists/1001/leads.json, /rest/v1/campaigns/1001/trigger.json, /rest/asset/v1/programs.json or " +
        "/bulk/v1/leads/export/{exportId}/file.json (an export file, read as records). Only the path: no host, no query string.",
    )
    // The guard's rule as a pattern, so clients can check it too; the guard still runs with its precise words.
    .meta({ title: "Endpoint", examples: ["/rest/v1/leads.json"], pattern: MARKETO_ENDPOINT_PATTERN }),
  query_parameters: z
    .record(z.string().min(1).max(100), z.union([QueryScalar, z.array(QueryScalar).max(300)]))
    .optional()
    .describe(
      'Query string parameters, e.g. {"filterType":"email","filterValues":"a@example.com"}. ' +
        "Arrays are sent comma-separated (Marketo's convention for filterValues, fields, id).",
    )
    .meta({ title: "Query parameters", examples: [{ filterType: "email", filterValues: "a@example.com" }] }),
  body: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'JSON request body, for POST only, e.g. {"input":{"leads":[{"id":318592}]}} to trigger a campaign. ' +
        "Asset API (/rest/asset/) POSTs are sent form-encoded from the same object.",
    )
    .meta({ title: "Body (JSON)", examples: [{ input: [{ id: 318592 }] }] }),
  file: z
    .string()
    .min(1)
    .max(10_000_000)
    .optional()
    .describe(
      "A bulk import's file as text, header row first, sent as multipart/form-data: POST /bulk/v1/leads.json with " +
        'query_parameters {"format":"csv"}, poll …/batch/{batchId}.json, then GET …/failures.json as records.',
    )
    .meta({ title: "Import file (CSV)", examples: ["email,firstName\nada@example.com,Ada"] }),
  paginate: z
    .boolean()
    .default(false)
    .describe(
      "Follow nextPageToken (or offset/maxReturn for asset browse calls) and read all pages, up to max_pages and " +
        "max_items. Answers are capped by size: when more remain, pass next_cursor back as cursor.",
    )
    .meta({ title: "Read all pages", examples: [true] }),
  max_pages: z
    .int()
    .min(1)
    .max(200)
    .default(20)
    .describe("With paginate: the most pages to read in this call (each page is one API call). Default 20.")
    .meta({ title: "Most pages", examples: [5] }),
  max_items: z
    .int()
    .min(1)
    .max(100_000)
    .default(5_000)
    .describe("With paginate, or for an export file: the most records to read in this call. Default 5,000.")
    .meta({ title: "Most records", examples: [1000] }),
  run_to_completion: z
    .boolean()
    .default(false)
    .describe(
      "POST …/export/create.json only: also enqueue, await Completed, read the file (first rows, whole file " +
        "linked). Cancelling the call cancels the job.",
    )
    .meta({ title: "Run the export to the end", examples: [true] }),
  cursor: cursorInput(
    "next_cursor of an earlier answer, to continue exactly after its last record: give the same method, " +
      "endpoint and query_parameters.",
  ).meta({ title: "Continue from (cursor)" }),
});
export type MarketoApiCallInput = z.output<typeof MarketoApiCallInput>;

const MarketoReason = z.object({
  code: z.string().describe("Record-level code, e.g. 1004 (lead not found)."),
  message: z.string(),
});

export const MarketoApiCallOutput = z.object({
  result: z
    .array(z.record(z.string(), z.unknown()))
    .describe("Records read (all pages), or an export file's rows keyed by its header."),
  complete: z.boolean().describe("False when more remain: continue with next_cursor."),
  next_cursor: z.string().optional().describe("Pass back as cursor, same request, to continue."),
  next_page_token: z.string().optional().describe("Marketo's token, when it continues exactly."),
  next_offset: z.int().optional().describe("Asset browse calls: the offset that continues."),
  warnings: z.array(z.string()),
  record_errors: z
    .array(
      z.object({
        index: z.int().describe("Position in the request input (or in the result)."),
        id: z.int().optional(),
        status: z.string().describe("e.g. skipped."),
        reasons: z.array(MarketoReason),
      }),
    )
    .describe("Records Marketo skipped, with reasons; the call itself succeeded."),
  pages: z.int().describe("Pages (or export file ranges) read."),
  calls_used: z.int().describe("API calls spent (daily quota)."),
  daily_calls_remaining: z.int().optional(),
  request_ids: z.array(z.string()).describe("For Marketo support."),
  translated_from: z.string().optional().describe("The seed-only endpoint translated to a real one."),
  extra: z.record(z.string(), z.unknown()).optional().describe("Other top-level fields of the response."),
});
export type MarketoApiCallOutput = z.output<typeof MarketoApiCallOutput>;
