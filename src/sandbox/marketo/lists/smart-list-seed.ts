/**
 * The seeded smart lists (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/smart-lists):
 * standalone ones with attribute rules in the Lead Database, and one per smart campaign in its program;
 * and whether a lead qualifies for one. Deterministic from the campaigns and the clock (no PRNG draw).
 */
import { SMART_LIST_FOLDER_ID } from "../assets/folder-tree.js";
import type { Campaign, Lead, SmartList, SmartListRule } from "../types.js";

const DAY_MS = 86_400_000;

const rule = (field: string, operator: SmartListRule["operator"], ...values: string[]): SmartListRule => ({
  field,
  operator,
  values,
});

const STANDALONE: readonly (readonly [string, SmartListRule[]])[] = [
  ["Gold Customers", [rule("customerTier", "is", "Gold")]],
  ["High Lead Score", [rule("leadScore", "at least", "100")]],
  ["US Leads", [rule("country", "is", "United States")]],
  ["Unsubscribed Leads", [rule("unsubscribed", "is", "true")]],
  ["Qualified Software Leads", [rule("leadStatus", "is", "Qualified"), rule("industry", "is", "Software")]],
];

/**
 * Smart lists 4001–4005 live in the Lead Database; 5001+ are the smart lists of the smart campaigns
 * (a campaign's smartListId), in the campaign's program.
 */
export function seedSmartLists(campaigns: readonly Campaign[], now: number): SmartList[] {
  const standalone = STANDALONE.map(([name, rules], i): SmartList => {
    const createdAt = now - (400 - i * 20) * DAY_MS;
    return {
      id: 4001 + i,
      name,
      description: "",
      folder: { id: SMART_LIST_FOLDER_ID, type: "Folder" },
      createdAt,
      updatedAt: createdAt + 3 * DAY_MS,
      rules,
    };
  });
  const ofCampaigns = campaigns.map(
    (c, i): SmartList => ({
      id: 5001 + i,
      name: c.name,
      description: "",
      folder: { id: c.programId, type: "Program" },
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
      rules: c.type === "batch" ? [rule("leadStatus", "is", "Nurture")] : [],
      campaignId: c.id,
    }),
  );
  return [...standalone, ...ofCampaigns];
}

/** Whether a lead qualifies for a smart list: every filter must hold ("all"); no filter means everyone. */
export function smartListMatches(list: SmartList, lead: Lead): boolean {
  return list.rules.every((r) => {
    const value = lead[r.field];
    if (value === null || value === undefined) return false;
    if (r.operator === "at least") return typeof value === "number" && value >= Number(r.values[0]);
    return r.values.some((v) => String(value).toLowerCase() === v.toLowerCase());
  });
}
