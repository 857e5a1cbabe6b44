/**
 * The fixed value lists the data set draws from (dimension values as GA4 spells them) and the
 * per-property profiles. Kept apart from the generator so the field catalog can describe them.
 */

export interface Country {
  name: string;
  id: string; // ISO 3166-1 alpha-2, the `countryId` dimension
  continent: string;
  weight: number;
}

export const COUNTRIES: readonly Country[] = [
  { name: "United States", id: "US", continent: "Americas", weight: 30 },
  { name: "France", id: "FR", continent: "Europe", weight: 12 },
  { name: "Germany", id: "DE", continent: "Europe", weight: 10 },
  { name: "United Kingdom", id: "GB", continent: "Europe", weight: 9 },
  { name: "Japan", id: "JP", continent: "Asia", weight: 7 },
  { name: "Canada", id: "CA", continent: "Americas", weight: 6 },
  { name: "Spain", id: "ES", continent: "Europe", weight: 5 },
  { name: "India", id: "IN", continent: "Asia", weight: 6 },
  { name: "Brazil", id: "BR", continent: "Americas", weight: 4 },
  { name: "Australia", id: "AU", continent: "Oceania", weight: 4 },
  { name: "Italy", id: "IT", continent: "Europe", weight: 4 },
  { name: "Netherlands", id: "NL", continent: "Europe", weight: 3 },
];

/** The channels visitors come from, shared with the Marketo sandbox's leads (../../traffic.ts). */
export { TRAFFIC, type TrafficSource } from "../../traffic.js";

export const DEVICES = ["desktop", "mobile", "tablet"] as const;
export const DEVICE_WEIGHTS = [50, 44, 6];

export interface Page {
  path: string;
  title: string;
  weight: number;
}

export const PAGES: readonly Page[] = [
  { path: "/", title: "Home", weight: 30 },
  { path: "/pricing", title: "Pricing", weight: 9 },
  { path: "/products", title: "All products", weight: 8 },
  { path: "/products/starter-kit", title: "Starter kit", weight: 6 },
  { path: "/products/pro-suite", title: "Pro suite", weight: 5 },
  { path: "/blog", title: "Blog", weight: 7 },
  { path: "/blog/getting-started", title: "Getting started", weight: 6 },
  { path: "/blog/release-notes", title: "Release notes", weight: 3 },
  { path: "/docs", title: "Documentation", weight: 6 },
  { path: "/docs/api", title: "API reference", weight: 4 },
  { path: "/about", title: "About us", weight: 3 },
  { path: "/contact", title: "Contact", weight: 4 },
  { path: "/signup", title: "Sign up", weight: 4 },
  { path: "/cart", title: "Cart", weight: 3 },
  { path: "/checkout", title: "Checkout", weight: 2 },
];

export interface Item {
  name: string;
  category: string;
  priceUsd: number;
}

export const ITEMS: readonly Item[] = [
  { name: "Starter kit", category: "Kits", priceUsd: 29 },
  { name: "Pro suite", category: "Software", priceUsd: 149 },
  { name: "Team licence", category: "Software", priceUsd: 89 },
  { name: "Sticker pack", category: "Merchandise", priceUsd: 6 },
  { name: "Hoodie", category: "Merchandise", priceUsd: 45 },
  { name: "Onboarding session", category: "Services", priceUsd: 120 },
];

/** An event a profile collects: share of sessions that fire it and mean count per such session. */
export interface EventSpec {
  name: string;
  reach: number;
  perSession: number;
}

export type ProfileKind = "none" | "shop" | "leads" | "media";

export interface DataProfile {
  kind: ProfileKind;
  /** Typical sessions per day; 0 for a property that has collected nothing. */
  dailySessions: number;
  hostName: string;
  events: readonly EventSpec[];
}

/** Every web stream collects these automatically (enhanced measurement). */
const AUTOMATIC: readonly EventSpec[] = [
  { name: "scroll", reach: 0.55, perSession: 1.4 },
  { name: "click", reach: 0.3, perSession: 1.6 },
];

const PROFILE_EVENTS: Record<Exclude<ProfileKind, "none">, readonly EventSpec[]> = {
  shop: [
    ...AUTOMATIC,
    { name: "view_item", reach: 0.35, perSession: 2.2 },
    { name: "add_to_cart", reach: 0.09, perSession: 1.3 },
    { name: "begin_checkout", reach: 0.05, perSession: 1.1 },
    { name: "purchase", reach: 0.025, perSession: 1 },
    { name: "sign_up", reach: 0.02, perSession: 1 },
  ],
  leads: [
    ...AUTOMATIC,
    { name: "file_download", reach: 0.06, perSession: 1.2 },
    { name: "form_start", reach: 0.05, perSession: 1 },
    { name: "generate_lead", reach: 0.02, perSession: 1 },
    { name: "sign_up", reach: 0.015, perSession: 1 },
  ],
  media: [
    ...AUTOMATIC,
    { name: "video_start", reach: 0.25, perSession: 1.5 },
    { name: "video_complete", reach: 0.1, perSession: 1.2 },
    { name: "share", reach: 0.02, perSession: 1 },
    { name: "login", reach: 0.08, perSession: 1 },
  ],
};

const KIND_BY_LAST_DIGIT: readonly ProfileKind[] = [
  "none",
  "shop",
  "shop",
  "shop",
  "leads",
  "leads",
  "leads",
  "media",
  "media",
  "media",
];

/**
 * The profile of a property depends on its id only (never on the seed), so the Admin side can tell
 * which events are collected without knowing the Data API options. Rule, by the id's last digit:
 * 0 → no data at all (a property with no tagged stream), 1-3 → online shop (the only profile with
 * revenue and items), 4-6 → lead generation, 7-9 → media site.
 */
export function profileOf(propertyId: string): DataProfile {
  const digit = Number(propertyId.at(-1));
  const kind = KIND_BY_LAST_DIGIT[Number.isInteger(digit) ? digit : 0] ?? "none";
  if (kind === "none") return { kind, dailySessions: 0, hostName: "(not set)", events: [] };
  // Scale varies per property (200..3200 sessions a day) but stays a pure function of the id.
  let spread = 0;
  for (const ch of propertyId) spread = (spread * 31 + ch.charCodeAt(0)) % 3001;
  return {
    kind,
    dailySessions: 200 + spread,
    hostName: `www.${kind}-${propertyId}.example`,
    events: PROFILE_EVENTS[kind],
  };
}
