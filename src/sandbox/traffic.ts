/**
 * The channels the sandbox's visitors come from, shared by the GA4 data set (sessions by source and
 * medium) and the Marketo sandbox (each lead's source fields), so that "leads from google last month"
 * and "GA sessions from google last month" can be set side by side and tell one story.
 *
 * `utm` is what a manually tagged link carries: GA4 fills its manual dimensions (manualSource,
 * sessionManualMedium, firstUserManualCampaignName, ...) from the UTM parameters only, and where auto
 * tagging and manual tagging meet, the source and medium are the auto-tagged ones
 * (https://support.google.com/analytics/answer/11242870 "Traffic-source dimensions, manual tagging, and
 * auto-tagging"). The newsletter and the paid search ads are tagged here; search, direct, social and
 * referral visits are not, so their manual dimensions are "(not set)". `referrer` is the page a visit
 * came from (none for direct and email traffic), `searchEngine` the engine of a search visit.
 */

export interface Utm {
  source: string;
  medium: string;
  campaign: string;
  /** utm_id, the manual campaign ID. */
  id?: string;
  term?: string;
  content?: string;
}

export interface TrafficSource {
  source: string;
  medium: string;
  campaign: string;
  channelGroup: string; // sessionDefaultChannelGroup
  weight: number;
  utm?: Utm;
  referrer?: string;
  searchEngine?: string;
}

export const TRAFFIC: readonly TrafficSource[] = [
  {
    source: "google",
    medium: "organic",
    campaign: "(organic)",
    channelGroup: "Organic Search",
    weight: 40,
    referrer: "https://www.google.com/",
    searchEngine: "Google",
  },
  { source: "(direct)", medium: "(none)", campaign: "(direct)", channelGroup: "Direct", weight: 25 },
  {
    source: "newsletter",
    medium: "email",
    campaign: "monthly_newsletter",
    channelGroup: "Email",
    weight: 8,
    utm: { source: "newsletter", medium: "email", campaign: "monthly_newsletter", content: "header_cta" },
  },
  {
    source: "facebook",
    medium: "social",
    campaign: "(referral)",
    channelGroup: "Organic Social",
    weight: 7,
    referrer: "https://www.facebook.com/",
  },
  {
    source: "google",
    medium: "cpc",
    campaign: "brand_search",
    channelGroup: "Paid Search",
    weight: 10,
    utm: {
      source: "google",
      medium: "cpc",
      campaign: "brand_search",
      id: "bs_2024",
      term: "sandbox analytics",
    },
    referrer: "https://www.google.com/",
    searchEngine: "Google",
  },
  {
    source: "bing",
    medium: "organic",
    campaign: "(organic)",
    channelGroup: "Organic Search",
    weight: 4,
    referrer: "https://www.bing.com/",
    searchEngine: "Bing",
  },
  {
    source: "linkedin.com",
    medium: "referral",
    campaign: "(referral)",
    channelGroup: "Referral",
    weight: 6,
    referrer: "https://www.linkedin.com/",
  },
];
