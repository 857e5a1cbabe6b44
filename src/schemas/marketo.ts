import { z } from "zod";
import { cursorInput, QueryScalar } from "./common.js";
import { guardedPathPattern, publishedPattern } from "./patterns.js";

/**
 * A Marketo path as the endpoint guard accepts it under Marketo's ENDPOINT_RULES: /rest/ or /bulk/, then
 * segments. Published in the schema for clients; the form says this when it does not match.
 */
export const MARKETO_ENDPOINT_PATTERN = publishedPattern(
  guardedPathPattern(["rest", "bulk"]),
  "use a path beginning with /rest/ or /bulk/, e.g. /rest/v1/leads.json: plain ASCII, no host, no query " +
    "string (use Query parameters), no spaces and no . or .. segments",
);

/** max_items when a read does not give it (with paginate, or for a file read outside run_to_completion). */
export const DEFAULT_MAX_ITEMS = 5_000;
/** The longest where (and count_by, whose conditions are where's): an id list of another read fits. */
const WHERE_MAX = 30_000;

export const MarketoApiCallInput = z.strictObject({
  method: z
    .enum(["GET", "POST", "DELETE"])
    .describe("GET reads, POST writes or triggers, DELETE removes.")
    .meta({ title: "Method", examples: ["GET"] }),
  endpoint: z
    .string()
    .min(1)
    .max(2048)
    .describe(
      "Path under /rest or /bulk (no host or query string), e.g. /rest/v1/leads.json; …/export/{exportId}/file.json " +
        "reads records. GET with {name}: read per id of query_parameters[name] (≤200).",
    )
    // The guard's rule as a pattern, so clients can check it too; the guard still runs with its precise words.
    .meta({ title: "Endpoint", examples: ["/rest/v1/leads.json"], pattern: MARKETO_ENDPOINT_PATTERN }),
  query_parameters: z
    // Lists up to 10,000: a list membership DELETE of more than Marketo's 300 ids is split into calls of 300.
    .record(z.string().min(1).max(100), z.union([QueryScalar, z.array(QueryScalar).max(10_000)]))
    .optional()
    .describe(
      "E.g. filterType email, filterValues a@example.com; arrays go comma-separated, or fill {name}. activities.json: " +
        'sinceDatetime (no paging token needed), activityTypeIds ids, names ("Open Email") or "all".',
    )
    .meta({ title: "Query parameters", examples: [{ filterType: "email", filterValues: "a@example.com" }] }),
  body: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'POST only, e.g. {"input":[{"id":318592}]} (list adds: any number of ids); Asset API POSTs go form-encoded.',
    )
    .meta({ title: "Body (JSON)", examples: [{ input: [{ id: 318592 }] }] }),
  file: z
    .string()
    .min(1)
    .max(10_000_000)
    .optional()
    .describe(
      'Bulk import CSV, header first: POST /bulk/v1/leads.json, query_parameters {"format":"csv"}; then poll …/batch/{batchId}.json.',
    )
    .meta({ title: "Import file (CSV)", examples: ["email,firstName\nada@example.com,Ada"] }),
  time_zone: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .optional()
    .describe(
      "IANA zone, e.g. America/New_York, of dates in filters, sinceDatetime, where, count_by (…Z stays UTC).",
    )
    .meta({ title: "Time zone of the dates", examples: ["America/New_York"] }),
  paginate: z
    .boolean()
    .default(false)
    // next_cursor's own description says how to go on when more remain.
    .describe("Read all pages, up to max_pages and max_items.")
    .meta({ title: "Read all pages", examples: [true] }),
  max_pages: z
    .int()
    .min(1)
    .max(200)
    .default(20)
    // Its limit in words: a fresh agent asked for 500 and lost a call to the refusal (trial s29b, N401).
    .describe("With paginate: most pages (≤200).")
    .meta({ title: "Most pages", examples: [5] }),
  max_items: z
    .int()
    .min(1)
    .max(100_000)
    .optional()
    // Records read, not results: a fresh agent gave it as the matches wanted (trial s9, N47).
    .describe(
      "Most records read before where, not results (≤100,000): default 5,000 (paginate, files); none with run_to_completion.",
    )
    .meta({ title: "Most records", examples: [1000] }),
  run_to_completion: z
    .boolean()
    .default(false)
    .describe("Exports: run the job, read its file (any span: a job per 31 days, joined).")
    .meta({ title: "Run the export to the end", examples: [true] }),
  // Long enough for an id list read from another call (`id in (…)` of 3,000 ids): the set operations agents
  // otherwise did by hand (trial s23, N282).
  where: z
    .string()
    .trim()
    .min(1)
    .max(WHERE_MAX)
    .optional()
    .describe(
      'Reads: keep records matching, e.g. leadScore > 50 and email ends_with "@acme.com"; also != <= >= contains ' +
        'begins_with in (…) in result("<link or GET path>"[, "<column>"]) between is empty, and/or/not, field vs field (updatedAt > createdAt - 24h); quote text, dates, odd names; a.b reads inside.',
    )
    .meta({ title: "Where", examples: ['leadScore > 50 and email ends_with "@acme.com"'] }),
  order_by: z
    .string()
    .trim()
    .max(500)
    .optional()
    .describe('Reads: sort, e.g. "-leadScore,email" (- descending).')
    .meta({ title: "Order by", examples: ["-updatedAt"] }),
  count_by: z
    .string()
    .trim()
    .max(WHERE_MAX)
    .optional()
    .describe(
      'Reads: count per value, e.g. "leadSource", "createdAt:day" (:week :month :quarter :year :weekday :hour), "leadScore:25" (bands), "npsScore:(0,7,9)" (bands from those edges); "email,type:columns" pivots (order_by "-true%" or "-a/b": a column as a share of its row, or a ratio); a condition (leadScore > 50) counts true/false.',
    )
    .meta({ title: "Count by", examples: ["leadSource"] }),
  // Chained reads: the records a count answered for, handed on, cost an agent a second call that printed them
  // (trial s43, N598, N601: 26,000 to 33,000 characters each time).
  keep_counted: z
    .boolean()
    .optional()
    .describe("With count_by: also link the records counted, for in result(…) or join.")
    .meta({ title: "Keep the records counted", examples: [true] }),
  min_count: z
    .int()
    .min(1)
    .max(1_000_000_000)
    .optional()
    .describe("With count_by: keep values (a :columns table's rows) counted at least this often.")
    .meta({ title: "Least count", examples: [2] }),
  count_by_ignore_case: z
    .boolean()
    .optional()
    .describe("With count_by: ignore case and outer spaces.")
    .meta({ title: "Count ignoring case", examples: [true] }),
  count_distinct: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('With count_by: distinct values per group ("leadId").')
    .meta({ title: "Count distinct", examples: ["leadId"] }),
  sum: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'With count_by: sum, mean, median, min, max per group ("costs.cost"; of dates: min, median, max; "a - b": days between); "x:p90" adds p90.',
    )
    .meta({ title: "Sum", examples: ["costs.cost"] }),
  // Questions of leads, not records (records/per.ts): how many got N emails, who did both.
  per: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'Reads, exports: a row per value ("leadId"; "primaryAttributeValue & leadId" per pair) with records (its count), types (activities), distinct values of fields after it ("leadId,attributes.Device"); where before, count_by after.',
    )
    .meta({ title: "One row per", examples: ["leadId"] }),
  // Two activities in one read (activity-previous.ts): a send and its click, a visit and the form filled after.
  previous: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe(
      "Activities (also exports): each gets previous, the lead's last activity of these types before it (same email if alike), and previous_hours.",
    )
    .meta({ title: "Pair with the activity before", examples: ["Send Email"] }),
  // The other way (activity-previous.ts): the first send after a lead was created, the deliveries after a bounce.
  next: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe("Likewise next, next_hours: the lead's first activity of these types after it.")
    .meta({ title: "Pair with the activity after", examples: ["Fill Out Form"] }),
  // Activities by the people behind them (lead-join.ts): opens by lead source, bounces by email domain.
  lead_fields: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .optional()
    .describe(
      'Activities (also exports), program members: each gets lead, these comma-separated fields of its lead; count_by "lead.country".',
    )
    .meta({ title: "Lead fields", examples: ["country,leadSource"] }),
  // A kept result's row on each record (records/kept-join.ts): members and each lead's activity counts, joined by
  // hand in trial s35 (N522, 169,440 characters).
  join: z
    .string()
    .trim()
    .min(1)
    .max(2_000)
    .optional()
    .describe(
      'Reads: each record gets joined, its row (rows: a list) of a kept result (a results/….json link or a GET path read whole) whose columns equal its fields: "<link> on <field here> = <its column>", e.g. "<link> on id = leadId"; none: no joined.',
    )
    .meta({ title: "Join a kept result", examples: ["martech-steps://results/<id>.json on id = leadId"] }),
  limit: z
    .union([z.string().trim().min(1).max(500), z.int().min(1).max(100_000)])
    .optional()
    // Results, after the read: a fresh agent sorted 96 members for the newest join and read all 96 (trial s19, N206).
    // "n per field": the first of each group, which agents took by hand (trial s34; records/limit-each.ts). Text
    // first: the console types a union led by text in a text box (console/src/form-ui.ts).
    .describe('Reads: first n results (after where, order_by, count_by); "1 per programId": of each.')
    .meta({ title: "First results only", examples: [10, "1 per programId"] }),
  cursor: cursorInput("An answer's next_cursor, to continue.").meta({
    title: "Continue from (cursor)",
  }),
});
export type MarketoApiCallInput = z.output<typeof MarketoApiCallInput>;

const MarketoReason = z.object({
  code: z.string().describe("Record-level code, e.g. 1004 (lead not found)."),
  message: z.string(),
});

export const MarketoApiCallOutput = z.object({
  result: z
    .array(z.record(z.string(), z.unknown()))
    .describe("Records read, or a file's rows by its header."),
  complete: z.boolean().describe("False: more remain (next_cursor)."),
  next_cursor: z.string().optional().describe("Pass back as cursor to continue."),
  next_page_token: z.string().optional().describe("Marketo's token, when it continues exactly."),
  next_offset: z.int().optional().describe("Asset browse: the offset to continue."),
  warnings: z.array(z.string()),
  record_errors: z
    .array(
      z.object({
        index: z.int().describe("Position in the request input."),
        id: z.int().optional(),
        status: z.string().describe("e.g. skipped."),
        reasons: z.array(MarketoReason),
      }),
    )
    .describe("Records Marketo skipped, with reasons; the call itself succeeded."),
  pages: z.int().describe("Pages (or file ranges) read."),
  calls_used: z.int().describe("API calls spent (daily quota)."),
  daily_calls_remaining: z.int().optional(),
  request_ids: z.array(z.string()).describe("For Marketo support."),
  translated_from: z.string().optional().describe("Seed-only endpoint translated."),
  extra: z.record(z.string(), z.unknown()).optional().describe("Other fields of the response."),
  computed: z.record(z.string(), z.number()).optional().describe("Figures: read, matched, groups."),
});
export type MarketoApiCallOutput = z.output<typeof MarketoApiCallOutput>;
