/**
 * The lead schema (what `leads/describe.json` reports) and the seeded leads; their source fields are
 * sources.ts's.
 *
 * Lead n (1-based) has id n and email `lead{n}@example.com`, so tests can predict lookups.
 */
import type { Prng } from "../../prng.js";
import type { Lead, LeadField, LeadValue } from "../types.js";
import { MAILABILITY_FIELDS } from "./mailability.js";
import { SOURCE_FIELDS } from "./sources.js";

const DAY_MS = 86_400_000;

export const LEAD_FIELDS: readonly LeadField[] = [
  { id: 1, name: "id", displayName: "Id", dataType: "integer", readOnly: true },
  { id: 2, name: "email", displayName: "Email Address", dataType: "email", length: 255, readOnly: false },
  { id: 3, name: "firstName", displayName: "First Name", dataType: "string", length: 255, readOnly: false },
  { id: 4, name: "lastName", displayName: "Last Name", dataType: "string", length: 255, readOnly: false },
  { id: 5, name: "createdAt", displayName: "Created At", dataType: "datetime", readOnly: true },
  { id: 6, name: "updatedAt", displayName: "Updated At", dataType: "datetime", readOnly: true },
  { id: 7, name: "company", displayName: "Company Name", dataType: "string", length: 255, readOnly: false },
  { id: 8, name: "title", displayName: "Job Title", dataType: "string", length: 255, readOnly: false },
  { id: 9, name: "country", displayName: "Country", dataType: "string", length: 255, readOnly: false },
  { id: 10, name: "city", displayName: "City", dataType: "string", length: 255, readOnly: false },
  { id: 11, name: "phone", displayName: "Phone Number", dataType: "phone", length: 255, readOnly: false },
  { id: 12, name: "industry", displayName: "Industry", dataType: "string", length: 255, readOnly: false },
  {
    id: 13,
    name: "leadSource",
    displayName: "Person Source",
    dataType: "string",
    length: 255,
    readOnly: false,
  },
  {
    id: 14,
    name: "leadStatus",
    displayName: "Lead Status",
    dataType: "string",
    length: 255,
    readOnly: false,
  },
  { id: 15, name: "leadScore", displayName: "Lead Score", dataType: "integer", readOnly: false },
  { id: 16, name: "unsubscribed", displayName: "Unsubscribed", dataType: "boolean", readOnly: false },
  // The standard source fields and, among the custom ones, the UTM fields (sources.ts).
  ...SOURCE_FIELDS.filter((f) => f.id < 100),
  // Whether the lead can be emailed (mailability.ts).
  ...MAILABILITY_FIELDS,
  // A handful of custom fields, as every real instance has.
  {
    id: 101,
    name: "customerTier",
    displayName: "Customer Tier",
    dataType: "string",
    length: 50,
    readOnly: false,
  },
  {
    id: 102,
    name: "productInterest",
    displayName: "Product Interest",
    dataType: "string",
    length: 255,
    readOnly: false,
  },
  { id: 103, name: "npsScore", displayName: "NPS Score", dataType: "integer", readOnly: false },
  { id: 104, name: "lastWebinarDate", displayName: "Last Webinar Date", dataType: "date", readOnly: false },
  { id: 105, name: "gdprConsent", displayName: "GDPR Consent", dataType: "boolean", readOnly: false },
  ...SOURCE_FIELDS.filter((f) => f.id >= 100),
];

/** Returned when `fields` is not given (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads). */
export const DEFAULT_LEAD_FIELDS = [
  "id",
  "email",
  "updatedAt",
  "createdAt",
  "firstName",
  "lastName",
] as const;

const FIRST = [
  "Ada",
  "Ben",
  "Chloe",
  "Dev",
  "Elena",
  "Farid",
  "Grace",
  "Hiro",
  "Ines",
  "Jonas",
  "Kara",
  "Liam",
];
const LAST = [
  "Nguyen",
  "Smith",
  "Garcia",
  "Müller",
  "Okafor",
  "Rossi",
  "Tanaka",
  "Kowalski",
  "Silva",
  "Dubois",
];
const COMPANIES = [
  "Acme Corp",
  "Globex",
  "Initech",
  "Umbrella",
  "Hooli",
  "Stark Industries",
  "Wayne Enterprises",
];
const TITLES = ["Marketing Manager", "CMO", "Data Analyst", "VP Sales", "Developer", "Ops Lead", null];
const PLACES: readonly (readonly [string, string])[] = [
  ["United States", "Austin"],
  ["United States", "Boston"],
  ["Germany", "Berlin"],
  ["France", "Lyon"],
  ["United Kingdom", "Leeds"],
  ["Japan", "Osaka"],
  ["Brazil", "Recife"],
  ["India", "Pune"],
  ["Canada", "Calgary"],
  ["Australia", "Perth"],
];
const INDUSTRIES = ["Software", "Retail", "Finance", "Healthcare", "Manufacturing", null];
const SOURCES = ["Website", "Webinar", "Trade Show", "Paid Search", "List Import"];
const STATUSES = ["New", "Working", "Nurture", "Qualified", "Disqualified"];
const TIERS = ["Gold", "Silver", "Bronze", null, null];
const INTERESTS = ["Analytics", "Automation", "CRM", null];
/** The range seedLeads draws Lead Score from. */
export const SEEDED_SCORES = { min: 0, max: 120 } as const;

/**
 * The values seedLeads draws for the string fields the seeded Change Data Value activities change, so a
 * change's old and new values are ones the field holds in the data set (activities/field-changes.ts).
 */
export const SEEDED_VALUES: Readonly<Record<string, readonly LeadValue[]>> = {
  company: COMPANIES,
  title: TITLES,
  leadStatus: STATUSES,
  customerTier: TIERS,
};

export function fieldByName(fields: readonly LeadField[], name: string): LeadField | undefined {
  const lower = name.toLowerCase();
  return fields.find((f) => f.name.toLowerCase() === lower);
}

/** Seeded leads; createdAt spread over the 3 years before `now`, so ~5% are "new" in the 60-day window. */
export function seedLeads(prng: Prng, count: number, now: number): Map<number, Lead> {
  const leads = new Map<number, Lead>();
  for (let n = 1; n <= count; n++) {
    const createdAt = now - prng.int(1, 3 * 365) * DAY_MS + prng.int(0, DAY_MS - 1);
    const updatedAt = Math.min(now - 60_000, createdAt + prng.int(0, 400) * DAY_MS);
    const [country, city] = prng.pick(PLACES);
    const values: Record<string, LeadValue> = {
      email: `lead${n}@example.com`,
      firstName: prng.pick(FIRST),
      lastName: prng.pick(LAST),
      createdAt,
      updatedAt: Math.max(createdAt, updatedAt),
      company: prng.pick(COMPANIES),
      title: prng.pick(TITLES),
      country,
      city,
      phone: prng.chance(0.6) ? `+1-555-${String(prng.int(0, 9999)).padStart(4, "0")}` : null,
      industry: prng.pick(INDUSTRIES),
      leadSource: prng.pick(SOURCES),
      leadStatus: prng.pick(STATUSES),
      leadScore: prng.int(SEEDED_SCORES.min, SEEDED_SCORES.max),
      unsubscribed: prng.chance(0.05),
      customerTier: prng.pick(TIERS),
      productInterest: prng.pick(INTERESTS),
      npsScore: prng.chance(0.3) ? prng.int(0, 10) : null,
      lastWebinarDate: prng.chance(0.2)
        ? new Date(now - prng.int(1, 300) * DAY_MS).toISOString().slice(0, 10)
        : null,
      gdprConsent: prng.chance(0.7),
    };
    leads.set(n, { ...values, id: n });
  }
  return leads;
}
