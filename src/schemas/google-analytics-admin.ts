/**
 * The inputs and outputs of the Google Analytics steps other than Run Reports: Create Key Events and
 * Create properties (Admin API), and the API Call step (Data and Admin APIs). Run Reports' are in
 * google-analytics.ts, with the pieces these share.
 */
import { z } from "zod";
import { cursorInput, QueryScalar } from "./common.js";
import { PropertyField, Trimmed } from "./google-analytics.js";

export const CreateKeyEventsFields = z.strictObject({
  property: PropertyField,
  event_name: Trimmed.regex(
    /^[A-Za-z][A-Za-z0-9_]{0,39}$/,
    "a letter, then letters, digits or underscores; at most 40 characters",
  )
    .describe("Event name, e.g. sign_up (case-sensitive).")
    .meta({ title: "Event name", examples: ["sign_up"] }),
  counting_method: z
    .enum(["ONCE_PER_EVENT", "ONCE_PER_SESSION"])
    .default("ONCE_PER_EVENT")
    .describe("Every occurrence, or one per session.")
    .meta({ title: "Counting method", examples: ["ONCE_PER_SESSION"] }),
  skip_collection_check: z
    .boolean()
    .default(false)
    .describe("Skip the collection check (only for an event about to ship).")
    .meta({ title: "Skip the collection check", examples: [true] }),
});
export type CreateKeyEventsFields = z.output<typeof CreateKeyEventsFields>;

export const KeyEventOutput = z.object({
  name: z.string().describe("properties/<id>/keyEvents/<id>."),
  event_name: z.string(),
  counting_method: z.string().describe("ONCE_PER_EVENT or ONCE_PER_SESSION."),
  create_time: z.string().optional().describe("RFC 3339."),
  custom: z.boolean().optional().describe("False for key events GA creates itself (e.g. purchase)."),
  deletable: z.boolean().optional(),
});

export const CreateKeyEventsOutput = z.object({
  key_event: KeyEventOutput.describe("The key event (created now, or the one that already existed)."),
  already_existed: z.boolean().describe("True when the event already was a key event; nothing was created."),
  collected_events_last_30_days: z
    .int()
    .nullable()
    .describe("Events collected in the last 30 days; null: unchecked."),
  warnings: z.array(z.string()).describe("Differences from an existing key event, and notes."),
});
export type CreateKeyEventsOutput = z.output<typeof CreateKeyEventsOutput>;

/** Property.industryCategory values (REAL-API B3). */
export const INDUSTRY_CATEGORIES = (
  "AUTOMOTIVE BUSINESS_AND_INDUSTRIAL_MARKETS FINANCE HEALTHCARE TECHNOLOGY TRAVEL OTHER ARTS_AND_ENTERTAINMENT " +
  "BEAUTY_AND_FITNESS BOOKS_AND_LITERATURE FOOD_AND_DRINK GAMES HOBBIES_AND_LEISURE HOME_AND_GARDEN " +
  "INTERNET_AND_TELECOM LAW_AND_GOVERNMENT NEWS ONLINE_COMMUNITIES PEOPLE_AND_SOCIETY PETS_AND_ANIMALS REAL_ESTATE " +
  "REFERENCE SCIENCE SPORTS JOBS_AND_EDUCATION SHOPPING"
).split(" ") as [string, ...string[]];

// ICU's lists of IANA zones and ISO 4217 codes. "UTC"/"Etc/UTC" are missing from some ICU builds, and Node 20's
// list holds ICU's canonical names ("Asia/Calcutta"), not current IANA ones ("Asia/Kolkata", "Europe/Kyiv"):
// an Area/Location name that Intl resolves is accepted too.
const TIME_ZONES = new Set([...Intl.supportedValuesOf("timeZone"), "UTC", "Etc/UTC"]);
function isTimeZone(zone: string): boolean {
  if (TIME_ZONES.has(zone)) return true;
  if (!/^[A-Z][A-Za-z_]+(\/[A-Za-z0-9_+-]+){1,2}$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

export const CreatePropertiesFields = z.strictObject({
  analytics_account: Trimmed.regex(
    /^(accounts\/)?\d{1,20}$/,
    'an account ID such as "123456" or "accounts/123456"',
  )
    .optional()
    .describe("Analytics account for the property (accounts/123 or 123); needed when several are visible.")
    .meta({ title: "Analytics account", examples: ["accounts/123456"] }),
  display_name: Trimmed.min(1)
    .max(100)
    .describe("Property name shown in Google Analytics (1–100 chars).")
    .meta({ title: "Property name", examples: ["Example shop"] }),
  time_zone: Trimmed.refine(
    isTimeZone,
    "not an IANA time zone; use e.g. Europe/Paris, America/New_York or UTC",
  )
    .describe("Reporting time zone, an IANA name such as Europe/Paris or America/Los_Angeles.")
    .meta({ title: "Time zone", examples: ["Europe/Paris"] }),
  currency_code: Trimmed.toUpperCase()
    .refine((code) => CURRENCIES.has(code), "not an ISO 4217 currency code; use e.g. USD, EUR, JPY")
    .default("USD")
    .describe("ISO 4217 currency of revenue metrics, e.g. EUR.")
    .meta({ title: "Currency", examples: ["EUR"] }),
  industry_category: z
    .enum(INDUSTRY_CATEGORIES)
    .optional()
    .describe("Industry of the business (optional), e.g. TECHNOLOGY, SHOPPING, FINANCE, OTHER.")
    .meta({ title: "Industry", examples: ["TECHNOLOGY"] }),
});
export type CreatePropertiesFields = z.output<typeof CreatePropertiesFields>;

export const CreatePropertiesOutput = z.object({
  property: z
    .object({
      name: z.string().describe("properties/<id>."),
      property_id: z.string().describe("The numeric property ID, for the other steps."),
      display_name: z.string(),
      time_zone: z.string(),
      currency_code: z.string().optional(),
      industry_category: z.string().optional(),
      create_time: z.string().optional().describe("RFC 3339."),
      parent: z.string().describe("accounts/<id>."),
    })
    .describe("The new property."),
  next_steps: z.array(z.string()).describe("What to do so the property collects data."),
});
export type CreatePropertiesOutput = z.output<typeof CreatePropertiesOutput>;

export const GoogleApiCallFields = z.strictObject({
  method: z
    .enum(["GET", "POST", "PATCH", "DELETE"])
    .describe("POST creates or runs reports, PATCH updates.")
    .meta({ title: "Method", examples: ["GET"] }),
  endpoint: Trimmed.min(1)
    .max(2048)
    .describe(
      "Path relative to the API, e.g. v1beta/accountSummaries or v1beta/properties/123/dataStreams; a GET of " +
        'v1beta/properties/{property}/… reads each of query_parameters.property ([123,"Shop"] or "all"). No host.',
    )
    .meta({ title: "Endpoint", examples: ["v1beta/accountSummaries"] }),
  api: z
    .enum(["data", "admin"])
    .optional()
    .describe("Default: from the path.")
    .meta({ title: "API", examples: ["admin"] }),
  query_parameters: z
    .record(z.string().min(1).max(100), z.union([QueryScalar, z.array(QueryScalar).max(100)]))
    .optional()
    .describe('Query parameters, e.g. {"filter":"parent:accounts/123"} or {"updateMask":"display_name"}.')
    .meta({ title: "Query parameters", examples: [{ pageSize: 50 }] }),
  body: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('JSON body for POST and PATCH, e.g. {"displayName":"Shop"}.')
    .meta({ title: "Body (JSON)", examples: [{ metrics: [{ name: "sessions" }] }] }),
  cursor: cursorInput("An answer's next_cursor, to continue.").meta({
    title: "Continue from (cursor)",
  }),
});
export type GoogleApiCallFields = z.output<typeof GoogleApiCallFields>;

export const GoogleApiCallOutput = z.object({
  api: z.enum(["data", "admin"]).describe("The API that answered."),
  body: z
    .union([z.record(z.string(), z.unknown()), z.string()])
    .describe("Google's JSON response; its largest list capped by size (JSON text when nothing else fits)."),
  next_cursor: z
    .string()
    .optional()
    .describe("Set when the cap cut a list: pass back as cursor to continue."),
  warnings: z.array(z.string()).describe("Output caps and notes about the call."),
});
export type GoogleApiCallOutput = z.output<typeof GoogleApiCallOutput>;
