/**
 * Export files as Marketo writes them: a header row of the requested field names (or their
 * `columnHeaderNames`), one row per record, RFC 4180 quoting (only fields holding the delimiter, a quote
 * or a line break are quoted; quotes are doubled), empty values written as `null`, lead datetimes as
 * "2021-11-23T22:57:08Z", and activity `attributes` as a JSON object of name → value
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-lead-extract
 * and .../bulk-activity-extract). CSV is comma-, TSV tab- and SSV space-separated.
 */
import { stringify } from "csv-stringify/sync";
import { DELETE_LEAD } from "../activities.js";
import { leadDate } from "../codec.js";
import { smartListMatches } from "../data-assets.js";
import type { Activity, Lead, LeadValue, World } from "../types.js";
import type { BulkJob, BulkSelection } from "./model.js";

const DELIMITER = { CSV: ",", TSV: "\t", SSV: " " } as const;

function cell(value: LeadValue | undefined): string {
  if (value === null || value === undefined || value === "") return "null";
  return String(value);
}

type Selected<T> = { rows: T[] } | { error: string };

function selectLeads(world: World, selection: Extract<BulkSelection, { kind: "leads" }>): Selected<Lead> {
  const leads = [...world.leads.values()].sort((a, b) => a.id - b.id);
  if (selection.by === "date") {
    const { from, to, field } = selection;
    return {
      rows: leads.filter(
        (l) => typeof l[field] === "number" && (l[field] as number) >= from && (l[field] as number) <= to,
      ),
    };
  }
  const { id, name } = selection;
  const match = (item: { id: number; name: string }) =>
    id !== undefined ? item.id === id : item.name === name;
  if (selection.list === "static") {
    const list = world.lists.find(match);
    if (!list) return { error: `Static list ${id ?? name} not found` };
    return { rows: leads.filter((l) => list.members.has(l.id)) };
  }
  const smart = world.smartLists.find(match);
  if (!smart) return { error: `Smart list ${id ?? name} not found` };
  return { rows: leads.filter((l) => smartListMatches(smart, l)) };
}

function leadRows(world: World, job: BulkJob, leads: readonly Lead[]): string[][] {
  const types = new Map(world.fields.map((f) => [f.name.toLowerCase(), f.dataType]));
  return leads.map((lead) =>
    job.fields.map((name) => {
      const key = Object.keys(lead).find((k) => k.toLowerCase() === name.toLowerCase()) ?? name;
      const value = lead[key];
      return types.get(name.toLowerCase()) === "datetime" && typeof value === "number"
        ? leadDate(value)
        : cell(value);
    }),
  );
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
  let rows: string[][];
  if (job.selection.kind === "leads") {
    const selected = selectLeads(world, job.selection);
    if ("error" in selected) return selected;
    rows = leadRows(world, job, selected.rows);
  } else {
    const activities = selectActivities(world, job.selection);
    rows = activities.map((a) => job.fields.map((f) => activityValue(a, f)));
  }
  const text = stringify([job.headers, ...rows], {
    delimiter: DELIMITER[job.format],
    record_delimiter: "\n",
  });
  return { file: Buffer.from(text, "utf8"), records: rows.length };
}
