/**
 * Marketo's common tasks as forms a marketer fills (issue 28 §2): each turns fields a marketer knows into
 * one marketo_api_call input, shown to them as the REST call it makes. The calls are Adobe's:
 * - find a lead: Get Leads by Filter Type (GET /rest/v1/leads.json, filterType=email;
 *   https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads#query).
 *   Names are not a filterType (only the searchable fields of Describe Lead2 are), so a name is found in a
 *   bulk lead export of a period, kept by `where`
 *   (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-lead-extract);
 * - a list's members, and adding or removing them: list-tasks.ts;
 * - trigger a campaign: Request Campaign, POST /rest/v1/campaigns/{id}/trigger.json, which only a campaign
 *   with a "Campaign is Requested" trigger accepts: Get Smart Campaigns (Asset API) says so as isRequestable
 *   (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/smart-campaigns);
 * - exports: bulk lead and activity extracts run to completion (createdAt range; marketo_api_call joins
 *   31-day jobs) with `where` on the file's records;
 * - upsert: Sync Leads, POST /rest/v1/leads.json with action createOrUpdate, at most 300 records a call
 *   (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads#create-and-update).
 */
import { parse } from "csv-parse/sync";
import { ValidationError } from "../../errors.js";
import type { StepTask, TaskChoices } from "../tasks.js";
import { LEADS_FIELD, listMembers, showMembers } from "./list-tasks.js";
import { leadIds, period, periodFields, picked, required, SYNC_MAX } from "./task-values.js";

/**
 * An export's default lead fields: the form shows them by Marketo's standard display names (trial s9,
 * finding 8: it showed "firstName, leadScore, createdAt"); the export sends their REST names.
 */
const DEFAULT_LEAD_FIELDS: Readonly<Record<string, string>> = {
  id: "Id",
  email: "Email Address",
  firstName: "First Name",
  lastName: "Last Name",
  company: "Company Name",
  leadScore: "Lead Score",
  createdAt: "Created At",
  updatedAt: "Updated At",
};
const LEAD_FIELDS = Object.keys(DEFAULT_LEAD_FIELDS).join(", ");
const LEAD_FIELD_TITLES = Object.values(DEFAULT_LEAD_FIELDS).join(", ");
const BY_TITLE = new Map(
  Object.entries(DEFAULT_LEAD_FIELDS).map(([api, title]) => [title.toLowerCase(), api]),
);

/**
 * The default's display names as REST names. The console names the fields by the instance's own names
 * first (console/src/marketo/task-prepare.ts); this keeps the default exportable when it could not read
 * them, as a display name of two words would otherwise split into two fields.
 */
const defaultsInRestNames = (fields: string) =>
  fields
    .split(",")
    .map((name) => BY_TITLE.get(name.trim().toLowerCase()) ?? name.trim())
    .join(", ");
/**
 * What Find a lead's card shows (trial s5, finding 3: the default fields of Get Leads by Filter Type are
 * only id, email, names and dates); `fields` names the others (Adobe, "Query": a comma-separated list).
 */
const CARD_FIELDS = "id,email,firstName,lastName,company,leadScore,leadSource,createdAt,updatedAt";

/**
 * How a lead field is named, in the form's help and in the console's refusal of a name (one rule, said
 * the same in both: trial s8, finding 4): its display name or its REST name, in any case, and the
 * familiar names the console also takes (console/src/marketo/familiar-names.ts).
 */
const LEAD_FIELD_NAMES =
  'each lead field by its name as Marketo shows it or in one word ("First Name" or "firstName"), in any case; "Lead Source" also names Person Source';

const quoted = (text: string) => `"${text.replace(/["\\]/g, "")}"`;
const BY_NAME = { field: "by", values: ["name"] } as const;

const findLead: StepTask = {
  id: "find_lead",
  title: "Find a lead",
  summary:
    "Look up a lead by its email address, or by first and last name among the leads created in a period.",
  keywords: ["lead", "person", "contact", "search", "look up", "email", "name"],
  fields: [
    {
      name: "by",
      title: "Find",
      kind: "options",
      required: true,
      options: [
        { value: "email", label: "By email address" },
        { value: "name", label: "By name" },
      ],
      initial: () => "email",
    },
    {
      name: "email",
      title: "Email address",
      kind: "text",
      required: true,
      example: "lead7@example.com",
      when: { field: "by", values: ["email"] },
    },
    {
      name: "name",
      title: "Name",
      kind: "text",
      required: true,
      help: "A first and last name, or one name for either. Marketo searches names only in an export: of the leads created in the period below.",
      example: "Grace Tanaka",
      when: BY_NAME,
    },
    ...periodFields(BY_NAME),
  ],
  input(values) {
    if (values.by !== "name")
      return {
        method: "GET",
        endpoint: "/rest/v1/leads.json",
        query_parameters: {
          filterType: "email",
          filterValues: required(values, "email", "an email address"),
          fields: CARD_FIELDS,
        },
      };
    const who = required(values, "name", "a name");
    const [first, ...rest] = who.split(/\s+/);
    const where =
      rest.length > 0
        ? `firstName = ${quoted(first ?? "")} and lastName = ${quoted(rest.join(" "))}`
        : `firstName = ${quoted(who)} or lastName = ${quoted(who)}`;
    return leadExport(values, CARD_FIELDS, where);
  },
};

function leadExport(values: Readonly<Record<string, string>>, fields: string, where?: string) {
  const names = fields.split(/[\s,;]+/).filter(Boolean);
  if (names.length === 0) throw new ValidationError("fields", "name at least one field to export.");
  return {
    method: "POST",
    endpoint: "/bulk/v1/leads/export/create.json",
    body: { fields: names, format: "CSV", filter: { createdAt: period(values) } },
    run_to_completion: true,
    ...(where ? { where } : {}),
  };
}

const CAMPAIGNS: TaskChoices = {
  input: {
    method: "GET",
    endpoint: "/rest/asset/v1/smartCampaigns.json",
    query_parameters: { maxReturn: 200 },
    paginate: true,
    max_items: 1000,
  },
  option: (campaign) => {
    if (typeof campaign.id !== "number" || typeof campaign.name !== "string") return undefined;
    // isRequestable is "active and has a Campaign is Requested trigger" (Adobe's SmartCampaign model), so an
    // inactive campaign's reason is that it is not active, whatever its triggers.
    const requestable = campaign.isRequestable === true && campaign.isActive === true;
    const why =
      campaign.type === "batch"
        ? "a batch campaign (it runs on a schedule)"
        : campaign.isActive !== true
          ? "not active"
          : "no Campaign is Requested trigger";
    return {
      value: String(campaign.id),
      label: campaign.name,
      detail: requestable ? "can be requested" : `cannot be requested: ${why}`,
      group: requestable ? "Can be requested" : "Cannot be requested",
    };
  },
};

const triggerCampaign: StepTask = {
  id: "trigger_campaign",
  title: "Trigger a smart campaign",
  summary: "Run a requestable smart campaign for chosen leads, picking the campaign by its name.",
  // A marketer asks to send an email ("send email", "welcome email"): the campaign sends it (trial s13, finding 1).
  keywords: [
    "smart campaign",
    "campaign",
    "trigger",
    "request",
    "send",
    "leads",
    "email",
    "welcome",
    "nurture",
  ],
  fields: [
    {
      name: "campaign",
      title: "Campaign",
      kind: "choice",
      plural: "campaigns",
      required: true,
      help: 'Only a campaign with a "Campaign is Requested" trigger (Web Service API) can be requested.',
    },
    LEADS_FIELD,
  ],
  choices: { campaign: CAMPAIGNS },
  input(values) {
    const campaign = picked(values, "campaign", "smart campaign");
    const ids = leadIds(values.leads, "leads");
    return {
      method: "POST",
      endpoint: `/rest/v1/campaigns/${encodeURIComponent(campaign)}/trigger.json`,
      body: { input: { leads: ids.map((id) => ({ id })) } },
    };
  },
};

const exportRecords: StepTask = {
  id: "export",
  title: "Export leads or activities",
  summary: "Export the leads or activities created in a period as one CSV file, with an optional filter.",
  keywords: [
    "export",
    "download",
    "csv",
    "extract",
    "bulk",
    "leads",
    "activities",
    "filter",
    "period",
    // Leads kept by their score ("Keep rows where Lead Score > 50"), in a marketer's words (trial s13, finding 1).
    "lead score",
    "scoring",
    "warm",
    "hot",
    "engaged",
    "qualified",
    "segment",
  ],
  fields: [
    {
      name: "what",
      title: "Export",
      kind: "options",
      required: true,
      options: [
        { value: "leads", label: "Leads" },
        { value: "activities", label: "Activities" },
      ],
      initial: () => "leads",
    },
    ...periodFields(),
    {
      name: "fields",
      title: "Lead fields",
      kind: "text",
      required: true,
      help: `The columns of the file, separated by commas: ${LEAD_FIELD_NAMES}. Each column is headed by the name you give.`,
      initial: () => LEAD_FIELD_TITLES,
      when: { field: "what", values: ["leads"] },
    },
    {
      name: "types",
      title: "Activity types",
      kind: "text",
      help: "Names separated by commas; empty for every type.",
      example: "Visit Webpage, Fill Out Form",
      when: { field: "what", values: ["activities"] },
    },
    {
      name: "where",
      title: "Keep rows where",
      kind: "text",
      help: "Optional: which rows to keep, with the fields' names and =, >, <, contains or ends with, joined by and or or.",
      example: "Lead Score > 50",
    },
  ],
  input(values) {
    if (values.what !== "activities")
      return leadExport(values, defaultsInRestNames(values.fields ?? LEAD_FIELDS), values.where);
    const types = (values.types ?? "").split(",").map((type) => type.trim());
    const named = types.filter(Boolean);
    return {
      method: "POST",
      endpoint: "/bulk/v1/activities/export/create.json",
      body: {
        format: "CSV",
        filter: { createdAt: period(values), ...(named.length > 0 ? { activityTypeIds: named } : {}) },
      },
      run_to_completion: true,
      ...(values.where ? { where: values.where } : {}),
    };
  },
};

const upsertLeads: StepTask = {
  id: "upsert_leads",
  title: "Create or update leads from a CSV",
  summary:
    "Paste rows with a header line: leads are matched on a field, updated when found, created when not.",
  keywords: ["upsert", "import", "csv", "create", "update", "leads", "sync", "upload", "paste"],
  fields: [
    {
      name: "csv",
      title: "Leads (CSV with a header line)",
      kind: "lines",
      required: true,
      help: `The first line names the columns: ${LEAD_FIELD_NAMES}. At most ${SYNC_MAX} rows.`,
    },
    {
      name: "match",
      title: "Match on",
      kind: "text",
      required: true,
      help: "The lead field that says two rows are the same lead (a column of the header line).",
      initial: () => "email",
    },
  ],
  input(values) {
    const { header, rows } = csvRows(required(values, "csv", "the rows"));
    const match = required(values, "match", "the field to match on");
    // The header line is what lacks the column: the refusal goes under the CSV box, not under Match on.
    if (!header.includes(match))
      throw new ValidationError("csv", `the header line has no "${match}" column, the field to match on.`, {
        hint: `Add a "${match}" column to the header line, or match on another of its columns.`,
      });
    // A row with no value to match on is not sent: Marketo would only refuse it (1003, "Value for lookup
    // field not specified"). The console's preview says it is skipped and its result keeps it in its place.
    const sent = rows.filter((row) => match in row);
    if (sent.length === 0)
      throw new ValidationError(
        "csv",
        `no row has a value in the "${match}" column, the field to match on.`,
        {
          hint: `Fill the "${match}" column, or match on another of its columns.`,
        },
      );
    return {
      method: "POST",
      endpoint: "/rest/v1/leads.json",
      body: { action: "createOrUpdate", lookupField: match, input: sent },
    };
  },
};

/** The pasted CSV's header and rows as records (empty cells left out), or a refusal naming the CSV field. */
function csvRows(text: string): { header: string[]; rows: Record<string, string>[] } {
  let header: string[] = [];
  let rows: Record<string, string>[];
  try {
    const columns = (first: string[]) => {
      header = first;
      return first;
    };
    rows = parse(text, { columns, skip_empty_lines: true, trim: true, bom: true });
  } catch (error) {
    throw new ValidationError("csv", `it cannot be read as CSV: ${(error as Error).message}`);
  }
  if (rows.length === 0) throw new ValidationError("csv", "give a header line and at least one row.");
  if (rows.length > SYNC_MAX)
    throw new ValidationError("csv", `${rows.length} rows: at most ${SYNC_MAX} at a time.`, {
      hint: "Split the rows into several runs.",
    });
  const filled = (row: Record<string, string>) =>
    Object.fromEntries(Object.entries(row).filter(([, value]) => value !== ""));
  return { header, rows: rows.map(filled) };
}

export const MARKETO_TASKS: readonly StepTask[] = [
  findLead,
  listMembers,
  showMembers,
  triggerCampaign,
  exportRecords,
  upsertLeads,
];
