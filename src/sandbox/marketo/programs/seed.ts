/**
 * Seeded assets beyond programs and emails: the folder trees (Lead Database, Marketing Activities,
 * Design Studio), smart lists (standalone ones and one per smart campaign) and program membership.
 * Drawn from their own PRNG stream, so adding them left the leads, lists and activities of a seed as
 * they were.
 */
import type { Prng } from "../../prng.js";
import type {
  AssetFolder,
  Campaign,
  Lead,
  Program,
  ProgramMembership,
  SmartList,
  SmartListRule,
} from "../types.js";

const DAY_MS = 86_400_000;

/** Folder ids of the seeded trees; program folders 40–43 are the `folder.value` of the programs. */
export const LIST_FOLDER_ID = 12;
export const SMART_LIST_FOLDER_ID = 13;
export const PROGRAM_FOLDER_NAMES = ["Marketing Programs", "Campaigns", "Nurturing", "Events"] as const;

type FolderSpec = readonly [id: number, name: string, folderType: string, parentId: number | null];

const FOLDER_SPECS: readonly FolderSpec[] = [
  [3, "Lead Database", "Zone", null],
  [5, "Default", "Zone", 3],
  [LIST_FOLDER_ID, "Global Lists", "List", 5],
  [SMART_LIST_FOLDER_ID, "Global Smart Lists", "List", 5],
  [14, "Marketing Activities", "Zone", null],
  [15, "Default", "Zone", 14],
  ...PROGRAM_FOLDER_NAMES.map((name, i): FolderSpec => [40 + i, name, "Marketing Folder", 15]),
  [16, "Design Studio", "Zone", null],
  [17, "Default", "Zone", 16],
  [18, "Emails", "Email", 17],
  [19, "Landing Pages", "Landing Page", 17],
  [20, "Images and Files", "Image", 17],
];

/** The three trees as the real instance has them: a root Zone, its workspace Zone, then folders. */
export function seedFolders(now: number): AssetFolder[] {
  const created = now - 900 * DAY_MS;
  const byId = new Map<number, AssetFolder>();
  for (const [id, name, folderType, parentId] of FOLDER_SPECS) {
    const parent = parentId === null ? undefined : byId.get(parentId);
    const isRoot = parentId === null;
    byId.set(id, {
      id,
      name,
      description: isRoot ? `Root node for the ${name} app area` : folderType === "Zone" ? null : "",
      folderType,
      parentId,
      path: `${parent?.path ?? ""}/${name}`,
      isSystem: folderType === "Zone" || id === LIST_FOLDER_ID,
      createdAt: created,
      updatedAt: created + (id % 7) * DAY_MS,
    });
  }
  return [...byId.values()];
}

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

/** Progression statuses by program type, the success status first (channel defaults of a new instance). */
const STATUSES: Record<Program["type"], readonly string[]> = {
  Email: ["Clicked", "Member", "Sent", "Delivered", "Opened", "Bounced", "Unsubscribed"],
  Default: ["Engaged", "Member"],
  Event: ["Attended", "Invited", "Registered", "No Show"],
  Engagement: ["Engaged", "Member"],
  Webinar: ["Attended", "Invited", "Registered", "No Show", "Attended On-demand"],
};

export function successStatuses(type: Program["type"]): readonly string[] {
  return type === "Webinar" ? ["Attended", "Attended On-demand"] : [STATUSES[type][0] as string];
}

export function programStatuses(type: Program["type"]): readonly string[] {
  return STATUSES[type];
}

/** 40–200 members per program, joined after the program was created. */
export function seedProgramMembers(
  prng: Prng,
  programs: readonly Program[],
  leadIds: readonly number[],
  now: number,
): Map<number, Map<number, ProgramMembership>> {
  const all = new Map<number, Map<number, ProgramMembership>>();
  for (const program of programs) {
    const members = new Map<number, ProgramMembership>();
    const count = Math.min(leadIds.length, prng.int(40, 200));
    const chosen = prng.shuffle(leadIds).slice(0, count);
    const success = successStatuses(program.type);
    for (const leadId of chosen.sort((a, b) => a - b)) {
      const statusName = prng.pick(STATUSES[program.type]);
      const membershipDate = Math.min(now - DAY_MS, program.createdAt + prng.int(0, 60) * DAY_MS);
      const membership: ProgramMembership = {
        leadId,
        programId: program.id,
        statusName,
        reachedSuccess: success.includes(statusName),
        acquiredBy: prng.chance(0.3),
        membershipDate,
        updatedAt: Math.min(now - 60_000, membershipDate + prng.int(0, 30) * DAY_MS),
      };
      if (program.type === "Engagement") {
        membership.stream = prng.pick(["Stream 1", "Stream 2"]);
        membership.nurtureCadence = prng.chance(0.8) ? "norm" : "paus";
        membership.isExhausted = prng.chance(0.1);
      }
      members.set(leadId, membership);
    }
    all.set(program.id, members);
  }
  return all;
}
