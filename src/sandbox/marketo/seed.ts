/**
 * The seeded data set of one sandbox instance. Same seed + lead count + clock → same data.
 */

import { mulberry32, type Prng } from "../prng.js";
import { settleFieldChanges } from "./activities/field-changes.js";
import { ACTIVITY_TYPES, seedActivities } from "./activities/log.js";
import { LIST_FOLDER_ID, PROGRAM_FOLDER_NAMES, seedFolders } from "./assets/folder-tree.js";
import { seedAssetStore } from "./assets/seed.js";
import { seedCustomObjects } from "./custom-objects/model.js";
import { LEAD_FIELDS, seedLeads } from "./lead-db/fields.js";
import { seedMailability } from "./lead-db/mailability.js";
import { seedLeadSources } from "./lead-db/sources.js";
import { seedSmartLists } from "./lists/smart-list-seed.js";
import { seedProgramCosts } from "./program-costs.js";
import { seedProgramMembers } from "./programs/seed.js";
import type { Campaign, EmailAsset, EmailVersion, Program, StaticList, World } from "./types.js";

const DAY_MS = 86_400_000;

export interface DataSetOptions {
  leadCount: number;
  seed: number;
  now: number;
  /** How long a bulk export job stays Processing; default 1_500. */
  bulkJobMs?: number;
  /** Bulk export bytes per Chicago day; default 500 MB (ADE bulk-extract.md "Limits"). */
  bulkDailyQuotaBytes?: number;
}

/** Sizes of the 10 static lists; the first (≥ 1,200 members) makes members paging span several pages. */
const LIST_SPECS: readonly (readonly [string, number])[] = [
  ["Newsletter Subscribers", 1250],
  ["Webinar Registrants Q3", 310],
  ["Trade Show Leads", 220],
  ["Customers - Gold", 150],
  ["Beta Testers", 80],
  ["Re-engagement Targets", 600],
  ["Event Speakers", 12],
  ["Do Not Call", 45],
  ["Partner Referrals", 5],
  ["Imported - Unprocessed", 0],
];

const PROGRAM_TYPES: readonly (readonly [Program["type"], string, string])[] = [
  ["Email", "Email Blast", "unlocked"],
  ["Default", "Content", ""],
  ["Event", "Webinar", ""],
  ["Engagement", "Nurture", "on"],
  ["Webinar", "Webinar", ""],
];

/** Lists 1001–1005 sit in the Lead Database folder "Global Lists", 1006–1010 in programs 1006–1010. */
function seedLists(
  prng: Prng,
  leadIds: readonly number[],
  programs: readonly Program[],
  now: number,
): StaticList[] {
  return LIST_SPECS.map(([name, size], i) => {
    const members = new Set(prng.shuffle(leadIds).slice(0, Math.min(size, leadIds.length)));
    const createdAt = now - prng.int(90, 700) * DAY_MS;
    const program = i < 5 ? undefined : programs[i];
    return {
      id: 1001 + i,
      name,
      description: i % 3 === 0 ? "" : `${name} (seeded)`,
      programName: program ? program.name : "Global Lists",
      workspaceName: "Default",
      folder: program ? { id: program.id, type: "Program" } : { id: LIST_FOLDER_ID, type: "Folder" },
      createdAt,
      updatedAt: createdAt + prng.int(0, 80) * DAY_MS,
      members,
    };
  });
}

function seedPrograms(prng: Prng, now: number): Program[] {
  const programs: Program[] = [];
  for (let i = 0; i < 30; i++) {
    const [type, channel, status] = PROGRAM_TYPES[i % PROGRAM_TYPES.length] as (typeof PROGRAM_TYPES)[number];
    const createdAt = now - prng.int(70, 900) * DAY_MS;
    const folderIndex = i % 4;
    programs.push({
      id: 1001 + i,
      name: `${type === "Email" ? "Email" : type} Program ${String(i + 1).padStart(2, "0")}`,
      description: i % 2 === 0 ? "" : `Seeded ${type.toLowerCase()} program`,
      type,
      channel,
      folder: {
        type: "Folder",
        value: 40 + folderIndex,
        folderName: PROGRAM_FOLDER_NAMES[folderIndex] as string,
      },
      status,
      workspace: "Default",
      createdAt,
      updatedAt: createdAt + prng.int(0, 60) * DAY_MS,
      tags: [
        { tagType: "Program Owner", tagValue: prng.pick(["Marketing Ops", "Demand Gen", "Field Marketing"]) },
      ],
    });
  }
  return programs;
}

function version(name: string, variant: string, operational: boolean, updatedAt: number): EmailVersion {
  return {
    description: "",
    operational,
    subject: `${name}${variant}`,
    fromName: "Sandbox Marketing",
    fromEmail: "marketing@example.com",
    replyEmail: "reply@example.com",
    preHeader: `Preview of ${name}`,
    html: `<p>Hello {{lead.First Name:default=there}},</p><p>${name}${variant}</p>`,
    text: `Hello {{lead.First Name:default=there}}, ${name}${variant}`,
    updatedAt,
  };
}

/** Every 5th email is a draft never approved; every 3rd (others) is approved with a pending draft. */
function seedEmails(prng: Prng, programs: readonly Program[], now: number): EmailAsset[] {
  const emailPrograms = programs.filter((p) => p.type === "Email");
  const emails: EmailAsset[] = [];
  for (let i = 0; i < 20; i++) {
    const program = emailPrograms[i % emailPrograms.length] as Program;
    const name = `Email ${String(i + 1).padStart(2, "0")} - ${prng.pick(["Welcome", "Newsletter", "Promo", "Reminder"])}`;
    const createdAt = now - prng.int(62, 400) * DAY_MS;
    const approvedAt = createdAt + prng.int(0, 20) * DAY_MS;
    const email: EmailAsset = {
      id: 2001 + i,
      name,
      programId: program.id,
      programName: program.name,
      template: 1001 + (i % 3),
      createdAt,
    };
    const operational = i % 7 === 0;
    if (i % 5 === 4) email.draft = version(name, " (draft)", operational, approvedAt);
    else {
      email.approved = version(name, "", operational, approvedAt);
      if (i % 3 === 0)
        email.draft = version(name, " (new draft)", operational, now - prng.int(1, 5) * DAY_MS);
    }
    emails.push(email);
  }
  return emails;
}

function seedCampaigns(programs: readonly Program[], now: number): Campaign[] {
  const specs: readonly (readonly [string, Campaign["type"], boolean, boolean])[] = [
    ["Send Welcome Email", "trigger", true, true],
    ["Webinar Reminder", "trigger", true, true],
    ["Score Web Visits", "trigger", true, false],
    ["Lead Nurture Entry", "trigger", false, true],
    ["Monthly Newsletter", "batch", false, false],
    ["Quarterly Re-engagement", "batch", false, false],
    ["Data Cleanup", "batch", false, false],
    ["Event Follow-up", "trigger", true, true],
  ];
  return specs.map(([name, type, active, requestable], i) => {
    const program = programs[i] as Program;
    return {
      id: 1001 + i,
      name,
      description: requestable ? "Campaign is Requested (source: Web Service API)" : "",
      type,
      programId: program.id,
      programName: program.name,
      workspaceName: "Default",
      createdAt: now - (200 - i) * DAY_MS,
      updatedAt: now - (30 - i) * DAY_MS,
      active,
      requestable,
    };
  });
}

export function buildDataSet(options: DataSetOptions): World {
  const prng = mulberry32(options.seed);
  const leads = seedLeads(prng, options.leadCount, options.now);
  const leadIds = [...leads.keys()];
  const programs = seedPrograms(prng, options.now);
  const campaigns = seedCampaigns(programs, options.now);
  const world: World = {
    fields: [...LEAD_FIELDS],
    leads,
    nextLeadId: options.leadCount + 1,
    lists: seedLists(prng, leadIds, programs, options.now),
    nextListId: 1001 + LIST_SPECS.length,
    folders: seedFolders(options.now),
    smartLists: seedSmartLists(campaigns, options.now),
    programMembers: new Map(),
    campaigns,
    campaignRuns: [],
    programs,
    emails: seedEmails(prng, programs, options.now),
    activityTypes: [...ACTIVITY_TYPES],
    assets: seedAssetStore(programs, options.now),
    activities: [],
    customObjectTypes: [],
    customObjects: new Map(),
    nextActivityId: 100_001,
    bulk: {
      imports: [],
      // Batch ids are integers (Swagger ImportLeadResponse.batchId); 3404 is the docs' example's.
      nextBatch: 3404,
      jobs: [],
      jobMs: options.bulkJobMs ?? 1_500,
      dailyQuotaBytes: options.bulkDailyQuotaBytes ?? 500 * 1024 * 1024,
      nextJob: 1,
    },
  };
  // Their own stream too: the source fields left every value drawn above as it was.
  seedLeadSources(mulberry32(options.seed ^ 0x27d4eb2f), leads.values());
  seedMailability(mulberry32(options.seed ^ 0x5bd1e995), leads.values(), options.now);
  seedActivities(prng, world, options.now);
  // The changes' values from a stream of their own: settling them moves no draw of the log above.
  settleFieldChanges(mulberry32(options.seed ^ 0xc2b2ae35), world);
  // A second stream: membership draws must not shift the data seeded above.
  world.programMembers = seedProgramMembers(
    mulberry32(options.seed ^ 0x9e3779b9),
    programs,
    leadIds,
    options.now,
  );
  // A third stream, for the same reason.
  const custom = seedCustomObjects(mulberry32(options.seed ^ 0x5bd1e995), leadIds, options.now);
  // And a fourth: the programs' period costs move nothing seeded above.
  seedProgramCosts(mulberry32(options.seed ^ 0x85ebca6b), programs, options.now);
  world.customObjectTypes = custom.types;
  world.customObjects = custom.records;
  return world;
}
