/**
 * Create or update leads from a CSV, in a marketer's words (trial s5, finding 2: the upload wrote at once,
 * showed no mapping, and answered by new lead ID with "1003: Value for lookup field 'email' not specified").
 * Before the write, a preview: each column's field by the name Marketo shows, the rows read, the rows that
 * will be skipped and why, and what Sync Leads' createOrUpdate does. After it, one row per row pasted, by
 * the field matched on. A row with no value to match on is not sent (the server leaves it out of the call,
 * src/tools/marketo/tasks.ts): the preview says it is skipped, and the result keeps it in its place, not
 * sent. Sync Leads answers one record per input record, in order, a skipped one with `reasons` and no id (REAL-API.md "Sync Leads"; Adobe, "Create and Update":
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads#create-and-update).
 * The record codes are Adobe's (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/error-codes):
 * 1003 invalid data (a lookup value missing among them), 1004 lead not found, 1005 lead exists, 1006 field
 * not found, 1007 several leads match.
 */
import { parse } from "csv-parse/browser/esm/sync";
import type { RunResult, RunStopped } from "../api.js";
import { csvHeaderInApiNames, fieldNamed } from "../column-names.js";
import type { NamedField } from "../filter-names.js";
import { fieldTitle } from "./lead-card.js";

type Row = Record<string, unknown>;

export interface UpsertPreview {
  /** Each column of the header line as pasted, and the field it writes by its display name. */
  columns: { typed: string; field: string }[];
  rows: number;
  /** The rows that will be skipped (numbered from 1, the header line not counted), each with why. */
  skipped: { row: number; why: string }[];
  /** What the write does, in words: "Creates new leads and updates existing ones, matched on Email Address." */
  mode: string;
}

/** The field matched on as a sentence names it: "email address", not "Email Address" mid-sentence. */
const lower = (title: string) => title.toLowerCase();

/** The upsert's records and lookup field, as the server built the call. */
function callOf(input: Row): { records: Row[]; lookup: string; action: string } {
  const body = (input.body ?? {}) as { input?: unknown; lookupField?: unknown; action?: unknown };
  const records = Array.isArray(body.input) ? (body.input as Row[]) : [];
  return {
    records,
    lookup: typeof body.lookupField === "string" ? body.lookupField : "email",
    action: typeof body.action === "string" ? body.action : "createOrUpdate",
  };
}

const MODES: Record<string, string> = {
  createOrUpdate: "Creates new leads and updates existing ones",
  createOnly: "Creates new leads only",
  updateOnly: "Updates existing leads only",
  createDuplicate: "Creates a new lead for every row",
};

/** The preview of the write `input` makes, from the CSV as pasted (its header's names) and the call. */
export function upsertPreview(csv: string, input: Row, fields: readonly NamedField[]): UpsertPreview {
  const [header = []] = parse(csv.replace(/^\uFEFF/, "").trimStart(), {
    trim: true,
    to_line: 1,
  }) as string[][];
  const columns = header
    .filter((cell) => cell !== "")
    .map((typed) => {
      const field = fieldNamed(typed, fields);
      // The field it writes by the instance's own name ("Lead Source" → Person Source).
      return { typed, field: field ? fieldTitle(fields, field.api) : typed };
    });
  const { lookup, action } = callOf(input);
  const what = lower(fieldTitle(fields, lookup));
  const pasted = pastedValues(csv, lookup, fields);
  const skipped = pasted.flatMap((value, index) =>
    value === "" ? [{ row: index + 1, why: `no ${what}` }] : [],
  );
  const mode = `${MODES[action] ?? action}, matched on ${fieldTitle(fields, lookup)}.`;
  return { columns, rows: pasted.length, skipped, mode };
}

/**
 * Each row pasted, as its value of the field matched on ("" for none): read as the server reads the CSV
 * (its header in API names, the same parse), so a row here is a row there.
 */
function pastedValues(csv: string, lookup: string, fields: readonly NamedField[]): string[] {
  const named = csvHeaderInApiNames(csv, fields);
  try {
    const rows = parse(named.ok ? named.value : csv, {
      columns: true,
      skip_empty_lines: true,
      trim: true,
      bom: true,
    }) as Record<string, string>[];
    return rows.map((row) => row[lookup] ?? "");
  } catch {
    // The server read it, so this cannot happen; then the call's records are the rows.
    return [];
  }
}

/** A reason Marketo gave for a record, in words; the code's own message when it is not one of these. */
export function reasonWords(reason: { code?: unknown; message?: unknown }, what: string): string {
  const code = String(reason.code ?? "");
  const message = typeof reason.message === "string" ? reason.message : "";
  if (code === "1003" && /lookup field/i.test(message)) return `no ${what}`;
  if (code === "1003") {
    const field = /field '([^']+)'/.exec(message)?.[1];
    return field ? `the value for ${field} is not accepted` : "a value is not accepted";
  }
  const words: Record<string, string> = {
    "1004": `no lead has this ${what}`,
    "1005": "a lead with this value exists already",
    "1006": "a column names a field the instance does not have",
    "1007": `several leads have this ${what}`,
  };
  return words[code] ?? (message || "skipped");
}

/**
 * One row per row pasted: its number, the value matched on, what happened, and the lead's ID. A row not
 * sent (no value to match on) is said so in its place; the others take Marketo's answers in order.
 */
export function upsertRows(
  result: RunResult | RunStopped,
  input: Row,
  csv: string,
  fields: readonly NamedField[],
): Row[] | undefined {
  if (result.type !== "result" || !Array.isArray(result.data.result)) return undefined;
  const answers = result.data.result as Row[];
  const { records, lookup } = callOf(input);
  const title = fieldTitle(fields, lookup);
  const what = lower(title);
  const pasted = pastedValues(csv, lookup, fields);
  // The CSV read as the call's records when it cannot be read here (never expected: the server read it).
  const values = pasted.length > 0 ? pasted : records.map((record) => String(record[lookup] ?? ""));
  let sent = 0;
  return values.map((value, index) => {
    const row = { Row: index + 1, [title]: value };
    if (value === "") return { ...row, Result: `skipped: no ${what} (not sent)`, "Lead ID": "" };
    const answer = answers[sent++] ?? {};
    const status = typeof answer.status === "string" ? answer.status : "";
    const reasons = Array.isArray(answer.reasons) ? (answer.reasons as Row[]) : [];
    const why = reasons.map((reason) => reasonWords(reason, what)).join("; ");
    return {
      ...row,
      Result: status === "skipped" || why ? `skipped: ${why || "no reason given"}` : status,
      "Lead ID": typeof answer.id === "number" ? answer.id : "",
    };
  });
}

/** How many rows pasted were not sent, having no value for the field matched on. */
export const notSent = (csv: string, input: Row, fields: readonly NamedField[]): number =>
  upsertPreview(csv, input, fields).skipped.length;
