/**
 * Internal model of the Marketo sandbox: the seeded "instance" (leads, lists, campaigns, assets,
 * activities) and the request/handler contract between the HTTP layer and the resource modules.
 * Nothing here is exported from the package: the sandbox is a separate program.
 */
import type { AssetStore } from "./assets/model.js";
import type { BulkState } from "./bulk/model.js";
import type { CustomObjectRecord, CustomObjectType } from "./custom-objects/model.js";

export type LeadValue = string | number | boolean | null;

/** A lead record keyed by REST field name; `id` is always present. */
export type Lead = { id: number } & Record<string, LeadValue>;

export type LeadDataType = "integer" | "string" | "email" | "datetime" | "date" | "boolean" | "phone";

export interface LeadField {
  id: number;
  name: string;
  displayName: string;
  dataType: LeadDataType;
  length?: number;
  readOnly: boolean;
}

/** How the Asset API names a parent: a folder or a program (request params and static lists use `id`). */
export interface FolderRef {
  id: number;
  type: "Folder" | "Program";
}

/** One object seen by both APIs: Lead DB `lists.json` and Asset `staticLists.json` (ADE static-lists.md). */
export interface StaticList {
  id: number;
  name: string;
  description: string;
  programName: string;
  workspaceName: string;
  folder: FolderRef;
  createdAt: number;
  updatedAt: number;
  members: Set<number>;
}

/** A folder of the Marketing Activities, Design Studio or Lead Database tree (ADE folders.md). */
export interface AssetFolder {
  id: number;
  name: string;
  description: string | null;
  /** "Zone" for the roots and their workspace, else what the folder holds ("Marketing Folder", "List"…). */
  folderType: string;
  parentId: number | null;
  path: string;
  isSystem: boolean;
  /** Set by an update with `isArchive=true` (Asset API folder/{id}.json). */
  isArchive?: boolean;
  createdAt: number;
  updatedAt: number;
}

/** One attribute condition of a smart list; leads match when every condition does ("all"). */
export interface SmartListRule {
  field: string;
  operator: "is" | "at least";
  values: string[];
}

export interface SmartList {
  id: number;
  name: string;
  description: string;
  folder: FolderRef;
  createdAt: number;
  updatedAt: number;
  rules: SmartListRule[];
  /** Set on the smart list of a smart campaign. */
  campaignId?: number;
}

/** A lead's membership of a program (ADE leads.md "Programs", program-members.md). */
export interface ProgramMembership {
  leadId: number;
  programId: number;
  statusName: string;
  reachedSuccess: boolean;
  acquiredBy: boolean;
  membershipDate: number;
  updatedAt: number;
  /** Engagement programs only. */
  stream?: string;
  nurtureCadence?: string;
  isExhausted?: boolean;
  /** Custom program member field values (programs/members.ts CUSTOM_MEMBER_FIELDS), set by Sync Program Member Data. */
  custom?: Record<string, string | number | null>;
}

export interface Campaign {
  id: number;
  name: string;
  description: string;
  type: "batch" | "trigger";
  programId: number;
  programName: string;
  workspaceName: string;
  createdAt: number;
  updatedAt: number;
  active: boolean;
  /** Has a "Campaign is Requested" (source: Web Service API) trigger, so Request Campaign may run it. */
  requestable: boolean;
}

export interface CampaignRun {
  campaignId: number;
  kind: "trigger" | "schedule";
  leadIds: number[];
  tokens: { name: string; value: string }[];
  /** ISO datetime the run happens (trigger: now; schedule: runAt or now + 5 min). */
  runAt: string;
}

export interface Program {
  id: number;
  name: string;
  description: string;
  type: "Default" | "Email" | "Event" | "Engagement" | "Webinar";
  channel: string;
  folder: { type: "Folder"; value: number; folderName: string };
  status: string;
  workspace: string;
  createdAt: number;
  updatedAt: number;
  tags: { tagType: string; tagValue: string }[];
  /** Period costs (Get Program by Id's `costs`); none when absent. */
  costs?: ProgramCost[];
}

/** A program's cost for a period: its start date ("2026-10-01T00:00:00Z+0000"), a whole amount and a note. */
export interface ProgramCost {
  startDate: string;
  cost: number;
  note: string;
}

/** An email's version: its metadata (Swagger UpdateEmailMetaDataRequest, name aside) and content. */
export interface EmailVersion {
  description: string;
  operational: boolean;
  subject: string;
  fromName: string;
  fromEmail: string;
  replyEmail: string;
  preHeader: string;
  html: string;
  text: string;
  updatedAt: number;
  /** Template variables (Asset API email variables.json), by name. */
  variables?: Record<string, string>;
}

export interface EmailAsset {
  id: number;
  name: string;
  programId: number;
  programName: string;
  template: number;
  createdAt: number;
  approved?: EmailVersion;
  draft?: EmailVersion;
}

export interface ActivityAttribute {
  name: string;
  value: string | number | boolean;
}

export interface Activity {
  id: number;
  leadId: number;
  at: number;
  activityTypeId: number;
  campaignId?: number;
  primaryAttributeValueId?: number;
  primaryAttributeValue?: string;
  attributes: ActivityAttribute[];
  /** Change Data Value (13) only: the field that changed. */
  change?: { fieldId: number; field: string; oldValue: LeadValue; newValue: LeadValue };
}

export interface ActivityTypeDef {
  id: number;
  name: string;
  description: string;
  primaryAttribute?: { name: string; dataType: string };
  attributes: { name: string; dataType: string }[];
}

export interface World {
  fields: LeadField[];
  leads: Map<number, Lead>;
  nextLeadId: number;
  lists: StaticList[];
  nextListId: number;
  folders: AssetFolder[];
  smartLists: SmartList[];
  /** programId → leadId → membership. */
  programMembers: Map<number, Map<number, ProgramMembership>>;
  campaigns: Campaign[];
  campaignRuns: CampaignRun[];
  programs: Program[];
  emails: EmailAsset[];
  activityTypes: ActivityTypeDef[];
  bulk: BulkState;
  /** The Asset API's other objects: My Tokens, snippets, segmentations, sample sends (assets/model.ts). */
  assets: AssetStore;
  customObjectTypes: CustomObjectType[];
  /** apiName → records of that custom object type. */
  customObjects: Map<string, CustomObjectRecord[]>;
  /** Sorted by `at` ascending (appends happen at the clock's "now"). */
  activities: Activity[];
  nextActivityId: number;
}

/** A Marketo response-level error (HTTP 200, success:false); codes are strings on the wire. */
export class MarketoApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "MarketoApiError";
  }
}

export interface ApiRequest {
  /** Effective method: a POST carrying `_method=GET|DELETE` (query or form body) is that method. */
  method: string;
  path: string;
  /** Query parameters, merged with the form body when the `_method=GET` workaround is used. */
  params: URLSearchParams;
  /** Media type without parameters, lowercased ("" when absent). */
  contentType: string;
  /** Raw request body ("" when none, or when it was consumed as parameters). */
  body: string;
  /** The `Range` header (bulk export files honour `bytes=a-b`). */
  range?: string;
  /** The fields of a multipart/form-data body (a file part as its text), for bulk imports. */
  parts?: ReadonlyMap<string, string>;
}

/** Envelope fields a handler returns; the server adds requestId, success (and errors/warnings for assets). */
export type HandlerResult = Record<string, unknown>;

/** A reply that is not a Marketo envelope: bulk export files (CSV, 206 ranges, plain-text 404s). */
export class RawReply {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: Buffer,
  ) {}
}

export interface HandlerContext {
  world: World;
  now(): number;
  /** Accepted API calls on the Chicago day `daysAgo` before today (stats/usage.json). */
  callsOn(daysAgo: number): number;
  /** Error responses by code on the Chicago day `daysAgo` before today (stats/errors.json). */
  errorsOn(daysAgo: number): ReadonlyMap<string, number>;
  apiUserEmail: string;
  /** Origin of the sandbox, used where Marketo returns links (program urls). */
  origin: string;
}

export type Handler = (
  req: ApiRequest,
  ctx: HandlerContext,
  pathParams: string[],
) => HandlerResult | RawReply;

export interface Route {
  method: "GET" | "POST" | "DELETE";
  /** The path as the route table writes it, e.g. "/rest/v1/lists/{id}/leads.json". */
  template: string;
  pattern: RegExp;
  handler: Handler;
  /** The body's media type when it is not the API's usual one (bulk imports take multipart/form-data). */
  consumes?: "multipart/form-data";
}
