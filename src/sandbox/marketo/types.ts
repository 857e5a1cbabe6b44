/**
 * Internal model of the Marketo sandbox: the seeded "instance" (leads, lists, campaigns, assets,
 * activities) and the request/handler contract between the HTTP layer and the resource modules.
 * Nothing here is exported from the package: the sandbox is a separate program.
 */

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

export interface StaticList {
  id: number;
  name: string;
  description: string;
  programName: string;
  workspaceName: string;
  createdAt: number;
  updatedAt: number;
  members: Set<number>;
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
}

export interface EmailVersion {
  subject: string;
  fromName: string;
  fromEmail: string;
  replyEmail: string;
  preHeader: string;
  html: string;
  text: string;
  updatedAt: number;
}

export interface EmailAsset {
  id: number;
  name: string;
  description: string;
  programId: number;
  programName: string;
  template: number;
  operational: boolean;
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
  campaigns: Campaign[];
  campaignRuns: CampaignRun[];
  programs: Program[];
  emails: EmailAsset[];
  activityTypes: ActivityTypeDef[];
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
  /** Effective method (GET for a form POST carrying `_method=GET`). */
  method: string;
  path: string;
  /** Query parameters, merged with the form body when the `_method=GET` workaround is used. */
  params: URLSearchParams;
  /** Media type without parameters, lowercased ("" when absent). */
  contentType: string;
  /** Raw request body ("" when none, or when it was consumed as parameters). */
  body: string;
}

/** Envelope fields a handler returns; the server adds requestId, success (and errors/warnings for assets). */
export type HandlerResult = Record<string, unknown>;

export interface HandlerContext {
  world: World;
  now(): number;
  /** Today's accepted API calls (usage.json). */
  callsToday(): number;
  apiUserEmail: string;
  /** Origin of the sandbox, used where Marketo returns links (program urls). */
  origin: string;
}

export type Handler = (req: ApiRequest, ctx: HandlerContext, pathParams: string[]) => HandlerResult;

export interface Route {
  method: "GET" | "POST" | "DELETE";
  pattern: RegExp;
  handler: Handler;
}
