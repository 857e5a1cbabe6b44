/**
 * Where the seeded leads came from: Marketo's standard source fields (Person Source `leadSource`,
 * `originalSourceType`, `originalSourceInfo`, `originalReferrer`, `originalSearchEngine`; the
 * standard-field list https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/list-of-standard-fields
 * and the fields of a real describe, ADE blog.md) and the UTM fields instances commonly add as custom
 * fields (utmSource, utmMedium, utmCampaign, utmTerm, utmContent: hidden form fields that capture a
 * tagged link's parameters).
 *
 * A lead that filled out a web form came through one of the channels the GA4 sandbox's sessions come
 * from (../../traffic.ts, drawn with the same weights), so "leads from google last month" and "GA
 * sessions from google last month" tell one story: its referrer and search engine are the channel's,
 * and its UTM fields are set only when the channel's links are tagged (the newsletter and the paid
 * search ads), with the very values GA4 reports as manualSource, manualMedium and manualCampaignName.
 * The other leads came from list imports (trade shows, webinars), with no web source data.
 *
 * Drawn from their own PRNG stream, so adding them left the other seeded values of a seed as they were.
 * Inferred (no published list of the values): the Original Source Type wording ("Web form fill-out",
 * "List import", "Web service API" for leads the API creates) and the Person Source names per channel.
 */
import type { Prng } from "../../prng.js";
import { TRAFFIC, type TrafficSource } from "../../traffic.js";
import type { Lead, LeadField, LeadValue } from "../types.js";

/** The standard and custom source fields of the lead schema (describe.json). */
export const SOURCE_FIELDS: readonly LeadField[] = [
  {
    id: 17,
    name: "originalSourceType",
    displayName: "Original Source Type",
    dataType: "string",
    length: 255,
    readOnly: true,
  },
  {
    id: 18,
    name: "originalSourceInfo",
    displayName: "Original Source Info",
    dataType: "string",
    length: 255,
    readOnly: true,
  },
  {
    id: 19,
    name: "originalReferrer",
    displayName: "Original Referrer",
    dataType: "string",
    length: 255,
    readOnly: true,
  },
  {
    id: 20,
    name: "originalSearchEngine",
    displayName: "Original Search Engine",
    dataType: "string",
    length: 255,
    readOnly: true,
  },
  { id: 106, name: "utmSource", displayName: "UTM Source", dataType: "string", length: 255, readOnly: false },
  { id: 107, name: "utmMedium", displayName: "UTM Medium", dataType: "string", length: 255, readOnly: false },
  {
    id: 108,
    name: "utmCampaign",
    displayName: "UTM Campaign",
    dataType: "string",
    length: 255,
    readOnly: false,
  },
  { id: 109, name: "utmTerm", displayName: "UTM Term", dataType: "string", length: 255, readOnly: false },
  {
    id: 110,
    name: "utmContent",
    displayName: "UTM Content",
    dataType: "string",
    length: 255,
    readOnly: false,
  },
];

/** What Marketo records for a lead the REST API creates (Sync Leads, Push Lead, imports). */
export const API_ORIGIN: Readonly<Record<string, LeadValue>> = {
  originalSourceType: "Web service API",
  originalSourceInfo: "Web service API",
};

/** Person Source by the channel group of the visit that brought the lead. */
const PERSON_SOURCE: Readonly<Record<string, string>> = {
  "Organic Search": "Organic Search",
  Direct: "Website",
  Email: "Email",
  "Organic Social": "Social",
  "Paid Search": "Paid Search",
  Referral: "Referral",
};

/** Share of leads that came through a web form; the rest were imported from lists. */
const WEB_SHARE = 0.85;
const IMPORTS = [
  ["Trade Show", "Trade Show Leads"],
  ["Webinar", "Webinar Registrants Q3"],
  ["List Import", "Imported - Unprocessed"],
] as const;
const FORM_PAGES = ["/contact", "/signup", "/pricing"];
const WEIGHTS = TRAFFIC.map((t) => t.weight);

function webSource(prng: Prng, traffic: TrafficSource): Record<string, LeadValue> {
  const utm = traffic.utm;
  const query = utm
    ? `?${new URLSearchParams({ utm_source: utm.source, utm_medium: utm.medium, utm_campaign: utm.campaign })}`
    : "";
  return {
    leadSource: PERSON_SOURCE[traffic.channelGroup] ?? "Website",
    originalSourceType: "Web form fill-out",
    originalSourceInfo: `www.example.com${prng.pick(FORM_PAGES)}${query}`,
    originalReferrer: traffic.referrer ?? null,
    originalSearchEngine: traffic.searchEngine ?? null,
    utmSource: utm?.source ?? null,
    utmMedium: utm?.medium ?? null,
    utmCampaign: utm?.campaign ?? null,
    utmTerm: utm?.term ?? null,
    utmContent: utm?.content ?? null,
  };
}

/** Sets each lead's source fields (and Person Source, to match them). */
export function seedLeadSources(prng: Prng, leads: Iterable<Lead>): void {
  for (const lead of leads) {
    if (prng.chance(WEB_SHARE)) {
      Object.assign(lead, webSource(prng, TRAFFIC[prng.weighted(WEIGHTS)] as TrafficSource));
      continue;
    }
    const [leadSource, list] = prng.pick(IMPORTS);
    Object.assign(lead, {
      leadSource,
      originalSourceType: "List import",
      originalSourceInfo: list,
      originalReferrer: null,
      originalSearchEngine: null,
      utmSource: null,
      utmMedium: null,
      utmCampaign: null,
      utmTerm: null,
      utmContent: null,
    });
  }
}
