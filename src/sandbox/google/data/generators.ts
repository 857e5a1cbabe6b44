/**
 * Values of the schema's dimensions that the data set does not store directly. Each is a pure
 * function of the slice (and of the event or item of an event- or item-grain fact), so a slice falls
 * in exactly one row of any breakdown and totals stay the same across breakdowns. Per slice, one
 * seeded draw fixes who its users are (a city inside the slice's country, a browser and OS that fit
 * its device category, an age and gender bracket, new or returning) and when it started (an hour
 * from a day curve). Fields fed by products the sandbox does not emulate (apps, games, AdMob) are
 * "(not set)", as on a real web property; the Search Ads 360, Display & Video 360 and Campaign Manager
 * 360 families have values only where the property is linked to the product (linked-products.ts).
 */
import {
  AGE_BRACKETS,
  CITIES,
  CONTINENT_IDS,
  GENDERS,
  HOUR_WEIGHTS,
  LANGUAGES,
  TECH,
} from "./catalog-traits.js";
import {
  COUNTRIES,
  type DataProfile,
  DEVICES,
  PAGES,
  TRAFFIC,
  type TrafficSource,
} from "./catalog-values.js";
import type { EventStat, ItemStat, Slice } from "./dataset.js";
import { calendarDimension } from "./dates.js";
import { linkedProductValue } from "./linked-products.js";
import { createRng } from "./prng.js";

const NOT_SET = "(not set)";
const DAY_MS = 86_400_000;

interface Traits {
  city: number;
  tech: number;
  hour: number;
  minute: number;
  age: number;
  gender: number;
  returning: boolean;
  firstTraffic: number;
  firstSessionDaysAgo: number;
}

const traitsCache = new WeakMap<Slice, Traits>();

function traitsOf(slice: Slice): Traits {
  const cached = traitsCache.get(slice);
  if (cached) return cached;
  const rng = createRng(
    "traits",
    slice.day,
    slice.country,
    slice.traffic,
    slice.device,
    slice.page,
    slice.sessions,
    slice.engagedSessions,
  );
  const countryId = COUNTRIES[slice.country]?.id ?? "";
  const returning = rng.next() >= slice.newUsers / Math.max(1, slice.totalUsers);
  const traits: Traits = {
    city: rng.weighted((CITIES[countryId] ?? []).map((c) => c.weight)),
    tech: rng.weighted((TECH[slice.device] ?? []).map((t) => t.weight)),
    hour: rng.weighted(HOUR_WEIGHTS),
    minute: rng.int(0, 59),
    age: rng.weighted(AGE_BRACKETS.map(([, w]) => w)),
    gender: rng.weighted(GENDERS.map(([, w]) => w)),
    returning,
    firstTraffic: returning ? rng.weighted(TRAFFIC.map((t) => t.weight)) : slice.traffic,
    firstSessionDaysAgo: returning ? rng.int(1, 120) : 0,
  };
  traitsCache.set(slice, traits);
  return traits;
}

/**
 * Whether a slice's users came before (its firstSessionDate is an earlier day). GA counts a user as new only
 * on the day of their first session (https://support.google.com/analytics/answer/12253918), so a returning
 * slice has no new users and a new slice's users are all new (facts.ts): the firstSessionDate and
 * newVsReturning rows then agree with newUsers (trial s17, N171: users first seen in September were counted
 * new in October).
 */
export const isReturning = (slice: Slice): boolean => traitsOf(slice).returning;

export interface GenContext {
  slice: Slice;
  profile: DataProfile;
  event?: EventStat | undefined;
  item?: ItemStat | undefined;
  /** First day of the earliest requested date range (the nth* dimensions count from it). */
  origin: number;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

function isoWeek(day: number): { year: number; week: number } {
  const d = new Date(day * DAY_MS);
  const weekday = (d.getUTCDay() + 6) % 7; // Monday 0
  const thursday = day - weekday + 3;
  const year = new Date(thursday * DAY_MS).getUTCFullYear();
  const jan1 = Math.floor(Date.UTC(year, 0, 1) / DAY_MS);
  return { year, week: Math.floor((thursday - jan1) / 7) + 1 };
}

function monthsBetween(from: number, to: number): number {
  const a = new Date(from * DAY_MS);
  const b = new Date(to * DAY_MS);
  return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth();
}

function timeValue(name: string, c: GenContext, t: Traits): string | undefined {
  const day = c.slice.day;
  const date = calendarDimension("date", day) ?? "";
  const offset = day - c.origin;
  switch (name) {
    case "hour":
      return pad(t.hour);
    case "minute":
      return pad(t.minute);
    case "dateHour":
      return `${date}${pad(t.hour)}`;
    case "dateHourMinute":
      return `${date}${pad(t.hour)}${pad(t.minute)}`;
    case "yearWeek":
      return `${calendarDimension("year", day)}${calendarDimension("week", day)}`;
    case "isoWeek":
      return pad(isoWeek(day).week);
    case "isoYear":
      return String(isoWeek(day).year);
    case "isoYearIsoWeek":
      return `${isoWeek(day).year}${pad(isoWeek(day).week)}`;
    case "nthDay":
      return pad(offset, 4);
    case "nthWeek":
      return pad(Math.floor(offset / 7), 4);
    case "nthMonth":
      return pad(monthsBetween(c.origin, day), 4);
    case "nthYear":
      return pad(Math.floor(monthsBetween(c.origin, day) / 12), 4);
    case "nthHour":
      return pad(offset * 24 + t.hour, 4);
    case "nthMinute":
      return pad((offset * 24 + t.hour) * 60 + t.minute, 4);
    default:
      return undefined;
  }
}

function userValue(name: string, c: GenContext, t: Traits): string | undefined {
  const country = COUNTRIES[c.slice.country];
  const city = CITIES[country?.id ?? ""]?.[t.city];
  const language = LANGUAGES[country?.id ?? ""];
  switch (name) {
    case "city":
      return city?.name ?? NOT_SET;
    case "cityId":
      return city?.id ?? NOT_SET;
    case "region":
      return city?.region ?? NOT_SET;
    case "continentId":
      return CONTINENT_IDS[country?.continent ?? ""] ?? NOT_SET;
    case "language":
      return language?.name ?? NOT_SET;
    case "languageCode":
      return language?.code ?? NOT_SET;
    case "userAgeBracket":
      return AGE_BRACKETS[t.age]?.[0] ?? "unknown";
    case "userGender":
      return GENDERS[t.gender]?.[0] ?? "unknown";
    case "newVsReturning":
      return t.returning ? "returning" : "new";
    case "firstSessionDate":
      return calendarDimension("date", c.slice.day - t.firstSessionDaysAgo) ?? NOT_SET;
    case "signedInWithUserId":
      return "no";
    case "audienceName":
      return "All Users";
    default:
      return undefined;
  }
}

function techValue(name: string, c: GenContext, t: Traits): string | undefined {
  const tech = TECH[c.slice.device]?.[t.tech];
  const device = DEVICES[c.slice.device] ?? NOT_SET;
  switch (name) {
    case "browser":
      return tech?.browser ?? NOT_SET;
    case "operatingSystem":
      return tech?.os ?? NOT_SET;
    case "operatingSystemVersion":
      return tech?.osVersion ?? NOT_SET;
    case "operatingSystemWithVersion":
      return tech ? `${tech.os} ${tech.osVersion}` : NOT_SET;
    case "mobileDeviceBranding":
      return tech?.brand ?? NOT_SET;
    case "mobileDeviceModel":
    case "deviceModel":
      return tech?.model ?? NOT_SET;
    case "mobileDeviceMarketingName":
      return tech?.marketingName ?? NOT_SET;
    case "screenResolution":
      return tech?.resolution ?? NOT_SET;
    case "platformDeviceCategory":
      return `web / ${device}`;
    default:
      return undefined;
  }
}

function pageValue(name: string, c: GenContext): string | undefined {
  const page = PAGES[c.slice.page];
  const host = c.profile.hostName;
  if (!page) return undefined;
  switch (name) {
    // A slice is the sessions that began on one page: that page is their landing page.
    case "landingPage":
    case "landingPagePlusQueryString":
    case "pagePathPlusQueryString":
    case "unifiedPagePathScreen":
    case "unifiedPageScreen":
      return page.path;
    case "pageLocation":
      return `https://${host}${page.path}`;
    case "fullPageUrl":
      return `${host}${page.path}`;
    case "unifiedScreenClass":
      return page.title;
    case "pageReferrer":
      return TRAFFIC[c.slice.traffic]?.referrer ?? "";
    default:
      return undefined;
  }
}

/** The attribution scope a traffic dimension names, and the field it reads: "sessionManualSource" → session, ManualSource. */
function trafficField(name: string): { first: boolean; field: string } {
  if (name.startsWith("firstUser")) return { first: true, field: name.slice("firstUser".length) };
  if (name.startsWith("session")) return { first: false, field: name.slice("session".length) };
  return { first: false, field: name.charAt(0).toUpperCase() + name.slice(1) };
}

/** The manual (utm_*) dimensions: the tagged link's parameters, "(not set)" for untagged traffic (traffic.ts). */
function manualValue(field: string, traffic: TrafficSource): string | undefined {
  if (!field.startsWith("Manual")) return undefined;
  const utm = traffic.utm;
  const value = (() => {
    switch (field) {
      case "ManualSource":
        return utm?.source;
      case "ManualMedium":
        return utm?.medium;
      case "ManualSourceMedium":
        return utm && `${utm.source} / ${utm.medium}`;
      case "ManualCampaignName":
        return utm?.campaign;
      case "ManualCampaignId":
        return utm?.id;
      case "ManualTerm":
        return utm?.term;
      case "ManualAdContent":
        return utm?.content;
      default:
        // utm_source_platform, utm_creative_format and utm_marketing_tactic: no link here carries them.
        return undefined;
    }
  })();
  return value ?? NOT_SET;
}

function trafficValue(name: string, c: GenContext, t: Traits): string | undefined {
  const { first, field } = trafficField(name);
  const traffic = TRAFFIC[first ? t.firstTraffic : c.slice.traffic];
  if (!traffic) return undefined;
  const paid = traffic.medium === "cpc";
  const manual = manualValue(field, traffic);
  if (manual !== undefined) return manual;
  const linked = linkedProductValue(field, traffic, c.profile);
  if (linked !== undefined) return linked;
  switch (field) {
    case "Source":
      return traffic.source;
    case "Medium":
      return traffic.medium;
    case "SourceMedium":
      return `${traffic.source} / ${traffic.medium}`;
    case "CampaignName":
      return traffic.campaign;
    case "CampaignId":
      return paid ? "20481234567" : traffic.campaign;
    case "DefaultChannelGroup":
    case "PrimaryChannelGroup":
      return traffic.channelGroup;
    case "SourcePlatform":
      return paid ? "Google Ads" : "Manual";
    case "GoogleAdsCampaignName":
      return paid ? traffic.campaign : NOT_SET;
    case "GoogleAdsAdNetworkType":
      return paid ? "Google search" : NOT_SET;
    case "GoogleAdsCampaignType":
      return paid ? "Search" : NOT_SET;
    case "GoogleAdsAccountName":
      return paid ? "Sandbox Ads" : NOT_SET;
    case "GoogleAdsCustomerId":
      return paid ? "123-456-7890" : NOT_SET;
    // The paid clicks' keyword and query, as Search Ads 360 reports them for the same clicks
    // (linked-products.ts) and the tagged link's utm_term says (traffic.ts); organic visits have neither.
    case "GoogleAdsKeyword":
      return paid ? "sandbox analytics" : NOT_SET;
    case "GoogleAdsQuery":
      return paid ? "sandbox analytics pricing" : NOT_SET;
    default:
      return undefined;
  }
}

/** Parameters of the events that carry them (enhanced measurement and recommended events). */
function eventParameter(name: string, event: EventStat | undefined): string | undefined {
  const e = event?.name;
  switch (name) {
    case "percentScrolled":
      return e === "scroll" ? "90" : undefined;
    case "outbound":
      return e === "click" ? "true" : undefined;
    case "linkDomain":
      return e === "click" ? "linkedin.com" : undefined;
    case "linkUrl":
      return e === "click" ? "https://www.linkedin.com/company/example" : undefined;
    case "fileExtension":
      return e === "file_download" ? "pdf" : undefined;
    case "fileName":
      return e === "file_download" ? "/docs/whitepaper.pdf" : undefined;
    case "videoProvider":
      return e?.startsWith("video_") ? "youtube" : undefined;
    case "videoTitle":
      return e?.startsWith("video_") ? "Product tour" : undefined;
    case "visible":
      return e?.startsWith("video_") ? "true" : undefined;
    case "method":
      return e === "sign_up" || e === "login" ? "Google" : undefined;
    case "currencyCode":
      return e === "purchase" ? "USD" : undefined;
    default:
      return undefined;
  }
}

function itemValue(name: string, item: ItemStat | undefined): string | undefined {
  if (!item) return undefined;
  switch (name) {
    case "itemId":
      return `SKU_${pad(item.item + 1, 4)}`;
    case "itemBrand":
      return "Sandbox";
    default:
      return undefined;
  }
}

/** The value of a non-modelled schema dimension for one fact; "(not set)" where nothing feeds it. */
export function generatedDimension(name: string, c: GenContext): string {
  const t = traitsOf(c.slice);
  return (
    timeValue(name, c, t) ??
    userValue(name, c, t) ??
    techValue(name, c, t) ??
    pageValue(name, c) ??
    trafficValue(name, c, t) ??
    eventParameter(name, c.event) ??
    itemValue(name, c.item) ??
    NOT_SET
  );
}
