/**
 * The advertising products a property is linked to, and the dimensions they feed. Google's schema lists
 * the Search Ads 360 (sa360…), Display & Video 360 (dv360…) and Campaign Manager 360 (cm360…) families
 * for every property (https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema), and
 * they are in every property's metadata here too; a family has values only where the property is linked
 * to its product (the links are made in the product and in GA's Admin, "Product links"; the Admin API has
 * them only in v1alpha, which this sandbox does not serve) and only for the traffic that product bought.
 * Elsewhere they are "(not set)", as on a property without the link.
 *
 * Modelled, as everything of a data profile, from the property id alone: an online shop (ids ending in
 * 1–3) runs its paid search (google / cpc, traffic.ts) through Search Ads 360. No property buys display
 * through Display & Video 360 or Campaign Manager 360: the data set has no display traffic, so those
 * families are "(not set)" everywhere. The SA360 values follow the Google Ads ones of the same clicks
 * (the "Sandbox Ads" account, the brand_search campaign).
 */
import type { TrafficSource } from "../../traffic.js";
import type { DataProfile } from "./catalog-values.js";

export type AdProduct = "sa360" | "dv360" | "cm360";

const NOT_SET = "(not set)";

/** The products a profile is linked to. */
export function linkedProducts(profile: Pick<DataProfile, "kind">): readonly AdProduct[] {
  return profile.kind === "shop" ? ["sa360"] : [];
}

/** What Search Ads 360 reports for the paid search clicks it manages. */
const SA360: Readonly<Record<string, string>> = {
  AdGroupId: "58700008234567890",
  AdGroupName: "Brand - Exact",
  CampaignId: "71700000108765432",
  CampaignName: "brand_search",
  CreativeFormat: "Responsive search ad",
  EngineAccountId: "1234567890",
  EngineAccountName: "Sandbox Ads",
  EngineAccountType: "google ads",
  KeywordText: "sandbox analytics",
  Keyword: "sandbox analytics",
  ManagerAccountId: "21700000001234567",
  ManagerAccountName: "Sandbox Agency",
  Medium: "cpc",
  Query: "sandbox analytics pricing",
  Source: "google",
  SourceMedium: "google / cpc",
};

/**
 * The value of a linked-product field ("Sa360CampaignName", "Dv360Medium", ... without the session /
 * firstUser prefix) for one slice's traffic; undefined when the field is none of theirs.
 */
export function linkedProductValue(
  field: string,
  traffic: TrafficSource,
  profile: DataProfile,
): string | undefined {
  const product = /^(Sa360|Dv360|Cm360)/.exec(field)?.[1]?.toLowerCase() as AdProduct | undefined;
  if (!product) return undefined;
  const bought = product === "sa360" && traffic.medium === "cpc" && traffic.source === "google";
  if (!bought || !linkedProducts(profile).includes(product)) return NOT_SET;
  return SA360[field.slice("Sa360".length)] ?? NOT_SET;
}
