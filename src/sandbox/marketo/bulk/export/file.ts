/**
 * Export files as Marketo writes them: a header row of the requested field names (or their
 * `columnHeaderNames`), one row per record, RFC 4180 quoting (only fields holding the delimiter, a quote
 * or a line break are quoted; quotes are doubled), empty values written as `null`, lead datetimes as
 * "2021-11-23T22:57:08Z", and activity `attributes` as a JSON object of name → value
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-lead-extract
 * and .../bulk-activity-extract). CSV is comma-, TSV tab- and SSV space-separated.
 */
import { stringify } from "csv-stringify/sync";
import { DELETE_LEAD } from "../../activities/read.js";
import type { Activity, Lead, World } from "../../types.js";
import { leadDate } from "../../wire/codec.js";
import type { BulkJob, BulkSelection } from "../model.js";
import { cell, customRows, leadCell, listLeads, memberRows, type Selected } from "./members-objects-rows.js";

const DELIMITER = { CSV: ",", TSV: "\t", SSV: " " } as const;

function selectLeads(world: World, selection: Extract<BulkSelection, { kind: "leads" }>): Selected<Lead> {
  if (selection.by === "list") return listLeads(world, selection);
  const { from, to, field } = selection;
  return {
    rows: [...world.leads.values()]
      .sort((a, b) => a.id - b.id)
      .filter(
        (l) => typeof l[field] === "number" && (l[field] as number) >= from && (l[field] as number) <= to,
      ),
  };
}

function leadRows(world: World, job: BulkJob, leads: readonly Lead[]): string[][] {
  return leads.map((lead) => job.fields.map((name) => leadCell(world, lead, name)));
}

function selectActivities(
  world: World,
  selection: Extract<BulkSelection, { kind: "activities" }>,
): Activity[] {
  const types = selection.activityTypeIds ? new Set(selection.activityTypeIds) : undefined;
  const ids = selection.primaryAttributeValueIds ? new Set(selection.primaryAttributeValueIds) : undefined;
  const values = selection.primaryAttributeValues ? new Set(selection.primaryAttributeValues) : undefined;
  return world.activities.filter(
    (a) =>
      a.at >= selection.from &&
      a.at <= selection.to &&
      // Deletions are read through deletedleads.json, never exported (ADE bulk-activity-extract.md).
      a.activityTypeId !== DELETE_LEAD &&
      (!types || types.has(a.activityTypeId)) &&
      (!ids || (a.primaryAttributeValueId !== undefined && ids.has(a.primaryAttributeValueId))) &&
      (!values || (a.primaryAttributeValue !== undefined && values.has(a.primaryAttributeValue))),
  );
}

function activityValue(a: Activity, field: string): string {
  switch (field) {
    case "marketoGUID":
      return String(a.id);
    case "leadId":
      return String(a.leadId);
    case "activityDate":
      return leadDate(a.at);
    case "activityTypeId":
      return String(a.activityTypeId);
    case "campaignId":
      return cell(a.campaignId);
    case "primaryAttributeValueId":
      return cell(a.primaryAttributeValueId);
    case "primaryAttributeValue":
      return cell(a.primaryAttributeValue);
    case "attributes":
      return JSON.stringify(Object.fromEntries(a.attributes.map((attr) => [attr.name, attr.value])));
    default:
      // actionResult: the sandbox's flows never skip or fail.
      return "succeeded";
  }
}

/** Writes the job's file from the world as it is now (the moment processing starts). */
export function writeExportFile(
  world: World,
  job: BulkJob,
): { file: Buffer; records: number } | { error: string } {
  const { selection } = job;
  let selected: Selected<string[]>;
  if (selection.kind === "leads") {
    const leads = selectLeads(world, selection);
    selected = "error" in leads ? leads : { rows: leadRows(world, job, leads.rows) };
  } else if (selection.kind === "activities") {
    const activities = selectActivities(world, selection);
    selected = { rows: activities.map((a) => job.fields.map((f) => activityValue(a, f))) };
  } else if (selection.kind === "programMembers") {
    selected = memberRows(world, job, selection);
  } else selected = customRows(world, job, selection);
  if ("error" in selected) return selected;
  const { rows } = selected;
  const headers =
    selection.kind === "programMembers" && selection.many ? ["programId", ...job.headers] : job.headers;
  const text = stringify([headers, ...rows], {
    delimiter: DELIMITER[job.format],
    record_delimiter: "\n",
  });
  return { file: Buffer.from(text, "utf8"), records: rows.length };
}
