/**
 * The rows of program member and custom object export files, and what every export's cells share:
 * empty values written as `null`, datetimes as "2021-11-23T22:57:08Z"
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-program-member-extract,
 * .../bulk-custom-object-extract). A programIds export starts each row with the record's programId (the
 * page's programIds filter note); members sort by program then lead, custom objects by lead then GUID.
 */

import { smartListMatches } from "../../lists/smart-list-seed.js";
import { MEMBER_FIELDS, memberValue } from "../../programs/members.js";
import type { Lead, LeadValue, World } from "../../types.js";
import { leadDate } from "../../wire/codec.js";
import type { BulkJob, BulkSelection } from "../model.js";

export function cell(value: LeadValue | undefined): string {
  if (value === null || value === undefined || value === "") return "null";
  return String(value);
}

/** A lead's value of a lead field, by case-insensitive name, datetimes as Marketo writes them. */
export function leadCell(world: World, lead: Lead, name: string): string {
  const key = Object.keys(lead).find((k) => k.toLowerCase() === name.toLowerCase()) ?? name;
  const value = lead[key];
  const type = world.fields.find((f) => f.name.toLowerCase() === name.toLowerCase())?.dataType;
  return type === "datetime" && typeof value === "number" ? leadDate(value) : cell(value);
}

export type Selected<T> = { rows: T[] } | { error: string };

/** The leads of a static or smart list, by id or name, as the list is now; an error once it is gone. */
export function listLeads(
  world: World,
  selection: { list: "static" | "smart"; id?: number; name?: string },
): Selected<Lead> {
  const leads = [...world.leads.values()].sort((a, b) => a.id - b.id);
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

const MEMBER_FIELD_NAMES = new Set(MEMBER_FIELDS.map(([name]) => name));

export function memberRows(
  world: World,
  job: BulkJob,
  selection: Extract<BulkSelection, { kind: "programMembers" }>,
): Selected<string[]> {
  const rows: string[][] = [];
  for (const programId of selection.programIds) {
    const program = world.programs.find((p) => p.id === programId);
    if (!program) return { error: `Program ${programId} not found` };
    const members = [...(world.programMembers.get(programId)?.values() ?? [])]
      .filter(
        (m) =>
          (selection.isExhausted === undefined || (m.isExhausted ?? false) === selection.isExhausted) &&
          (selection.nurtureCadence === undefined || m.nurtureCadence === selection.nurtureCadence) &&
          (!selection.statusNames ||
            selection.statusNames.some((s) => s.toLowerCase() === m.statusName.toLowerCase())) &&
          (!selection.updatedAt ||
            (m.updatedAt >= selection.updatedAt.from && m.updatedAt <= selection.updatedAt.to)),
      )
      .sort((a, b) => a.leadId - b.leadId);
    for (const m of members) {
      const lead = world.leads.get(m.leadId);
      if (!lead) continue;
      const row = job.fields.map((name) => {
        // A member field wins over a lead field of the same name (createdAt, updatedAt, leadId).
        return MEMBER_FIELD_NAMES.has(name)
          ? cell(memberValue(name, m, program))
          : leadCell(world, lead, name);
      });
      rows.push(selection.many ? [String(programId), ...row] : row);
    }
  }
  return { rows };
}

export function customRows(
  world: World,
  job: BulkJob,
  selection: Extract<BulkSelection, { kind: "customObjects" }>,
): Selected<string[]> {
  const type = world.customObjectTypes.find((t) => t.apiName === job.apiName);
  if (!type) return { error: `Custom object ${job.apiName ?? ""} not found` };
  let records = world.customObjects.get(type.apiName) ?? [];
  if (selection.by === "date") {
    records = records.filter((r) => r.updatedAt >= selection.from && r.updatedAt <= selection.to);
  } else {
    const leads = listLeads(world, selection);
    if ("error" in leads) return leads;
    const ids = new Set(leads.rows.map((l) => l.id));
    records = records.filter((r) => ids.has(Number(r.values[type.leadLink])));
  }
  const sorted = [...records].sort(
    (a, b) =>
      Number(a.values[type.leadLink]) - Number(b.values[type.leadLink]) ||
      a.marketoGUID.localeCompare(b.marketoGUID),
  );
  const rows = sorted.map((r) =>
    job.fields.map((name) => {
      if (name === "marketoGUID") return r.marketoGUID;
      if (name === "createdAt" || name === "updatedAt") return leadDate(r[name]);
      return cell(r.values[name]);
    }),
  );
  return { rows };
}
