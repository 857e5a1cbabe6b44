/**
 * Names people (and models trained on Universal Analytics code) write for GA4 fields, with GA4's name.
 *
 * The Universal Analytics rows follow Google's equivalence table,
 * https://developers.google.com/analytics/devguides/migration/api/reporting-ua-to-ga4-dims-mets
 * (ga:users → totalUsers, ga:pageviews → screenPageViews, ga:sessionDuration → userEngagementDuration,
 * ga:hits → eventCount, ga:source → sessionSource, ga:landingPagePath → landingPage, ...). "conversions" was
 * GA4's own name until March 2024, when Google renamed conversions to key events
 * (https://support.google.com/analytics/answer/13965727); UA goals have no other GA4 equivalent either.
 * Other rows are spellings of GA4 names (snake_case, plain words) whose GA4 name is in the API schema,
 * https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema.
 */
export interface OtherName {
  /** GA4's API name. */
  ga4: string;
  /** Why, when the match is not one-for-one. */
  note?: string;
}

/** Keyed by the written name folded: without a "ga:" prefix, lower case, letters and digits only. */
const NAMES: Record<string, OtherName> = {
  // Users and sessions.
  users: { ga4: "totalUsers" },
  visitors: { ga4: "totalUsers" },
  "1dayusers": { ga4: "active1DayUsers" },
  "7dayusers": { ga4: "active7DayUsers" },
  "28dayusers": { ga4: "active28DayUsers" },
  visits: { ga4: "sessions" },
  sessionduration: { ga4: "userEngagementDuration" },
  avgsessionduration: { ga4: "averageSessionDuration" },
  avgsessionlength: { ga4: "averageSessionDuration" },
  hits: { ga4: "eventCount" },
  totalevents: { ga4: "eventCount" },
  events: { ga4: "eventCount" },
  bounces: {
    ga4: "bounceRate",
    note: "GA4 counts no bounces; bounceRate is the share of sessions that were not engaged",
  },
  usertype: { ga4: "newVsReturning" },
  // Pages.
  pageviews: { ga4: "screenPageViews" },
  pageview: { ga4: "screenPageViews" },
  views: { ga4: "screenPageViews" },
  pageviewspersession: { ga4: "screenPageViewsPerSession" },
  landingpagepath: { ga4: "landingPage" },
  landingpageurl: { ga4: "landingPage" },
  pagepath: { ga4: "pagePath" },
  page: { ga4: "pagePath" },
  pageurl: { ga4: "pageLocation" },
  pagelocation: { ga4: "pageLocation" },
  url: { ga4: "pageLocation" },
  pagetitle: { ga4: "pageTitle" },
  hostname: { ga4: "hostName" },
  fullreferrer: { ga4: "pageReferrer" },
  // Traffic sources.
  source: { ga4: "sessionSource" },
  medium: { ga4: "sessionMedium" },
  sourcemedium: { ga4: "sessionSourceMedium" },
  campaign: { ga4: "sessionCampaignName" },
  campaignname: { ga4: "sessionCampaignName" },
  channelgrouping: { ga4: "sessionDefaultChannelGroup" },
  defaultchannelgrouping: { ga4: "sessionDefaultChannelGroup" },
  channel: { ga4: "sessionDefaultChannelGroup" },
  // Goals and e-commerce.
  conversions: { ga4: "keyEvents", note: "GA4 renamed conversions to key events in 2024" },
  goalcompletions: { ga4: "keyEvents", note: "Universal Analytics' goals are key events in GA4" },
  goalcompletionsall: { ga4: "keyEvents", note: "Universal Analytics' goals are key events in GA4" },
  goalconversionrateall: { ga4: "sessionKeyEventRate" },
  conversionrate: { ga4: "sessionKeyEventRate" },
  transactionrevenue: { ga4: "purchaseRevenue" },
  revenue: { ga4: "totalRevenue" },
  uniquepurchases: { ga4: "ecommercePurchases" },
  productaddstocart: { ga4: "addToCarts" },
  productcheckouts: { ga4: "checkouts" },
};

function fold(name: string): string {
  return name
    .replace(/^(?:ga|rt):/i, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

export const EQUIVALENCE_URL =
  "https://developers.google.com/analytics/devguides/migration/api/reporting-ua-to-ga4-dims-mets";

/**
 * GA4's name for `name` when it is a Universal Analytics name or another common spelling of a GA4 field;
 * undefined when `name` already is GA4's name as written (or is not in the table).
 */
export function otherName(name: string): OtherName | undefined {
  const entry = NAMES[fold(name)];
  return entry && entry.ga4 !== name ? entry : undefined;
}
