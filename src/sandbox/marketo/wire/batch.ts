/**
 * The batch writes of the Lead Database API share one shape (Sync Leads, Push Lead, Delete Leads, list
 * membership, Change Lead Program Status, the program member writes, partitions, custom objects;
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads): a JSON
 * body (609 "Invalid JSON" otherwise) whose `input` holds 1 to 300 records, 701 when it is absent or
 * empty and 1003 over 300 (ADE rest-api.md "Limits": "300 records per call"; the wording is inferred);
 * and a result per record whose `status` says what became of it, a skipped one with its
 * `reasons: [{code, message}]` (the GRP recording of Sync Leads).
 */
import { MarketoApiError } from "../types.js";
import { isRecord, jsonBody, LEAD_DB_MAX_BATCH, toInt } from "./params.js";

export interface Reason {
  code: string;
  message: string;
}

export const LEAD_NOT_FOUND: Reason = { code: "1004", message: "Lead not found" };

/** A JSON object body; 609 otherwise. */
export function objectBody(text: string): Record<string, unknown> {
  const body = jsonBody(text);
  if (!isRecord(body)) throw new MarketoApiError("609", "Invalid JSON");
  return body;
}

/** 1003 over 300 records. */
export function checkBatchSize(count: number, what = "records in input"): void {
  if (count > LEAD_DB_MAX_BATCH)
    throw new MarketoApiError("1003", `Too many ${what}: ${count}, maximum is ${LEAD_DB_MAX_BATCH}`);
}

/** The body's `input` records: 701 when absent or empty, 1003 over 300. */
export function inputOf(body: unknown): unknown[] {
  const input = isRecord(body) ? body.input : undefined;
  if (!Array.isArray(input) || input.length === 0) throw new MarketoApiError("701", "input cannot be blank");
  checkBatchSize(input.length);
  return input;
}

/** The lead ids of an `{"input":[{"id":n}]}` body (609 when `input` is not a list; 1003 for a bad id). */
export function inputIds(body: unknown): number[] {
  const input = isRecord(body) ? body.input : undefined;
  if (!Array.isArray(input)) throw new MarketoApiError("609", "Invalid JSON");
  return input.map((item) => {
    const raw = isRecord(item) ? item.id : undefined;
    return toInt(typeof raw === "number" || typeof raw === "string" ? String(raw) : "", "id");
  });
}

/** A record's number field (`leadId`, `id`), or undefined when it has none. */
export function numberOf(record: unknown, key: string): number | undefined {
  const value = isRecord(record) ? record[key] : undefined;
  return typeof value === "number" ? value : undefined;
}

/** A skipped record's result: what names it (`seq`, `id`, `leadId`), the status and the reason. */
export function skipped<K extends Record<string, unknown>>(
  names: K,
  reason: Reason,
): K & { status: "skipped"; reasons: Reason[] } {
  return { ...names, status: "skipped", reasons: [reason] };
}
