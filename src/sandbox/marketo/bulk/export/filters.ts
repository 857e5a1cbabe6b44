/**
 * What the bulk export create requests share: their refusals (1002 missing required parameter and 1003
 * "Invalid data", error-codes.md; the wording is inferred), date ranges of at most 31 days and list
 * filters (ADE bulk-extract.md "Limits", bulk-lead-extract.md and bulk-custom-object-extract.md "Filters").
 */

import { MarketoApiError, type World } from "../../types.js";
import { parseMarketoDate } from "../../wire/codec.js";
import { isRecord } from "../../wire/params.js";

/** Max time span of a createdAt/updatedAt filter (ADE bulk-extract.md "Limits"). */
const MAX_SPAN_MS = 31 * 86_400_000;

export const invalid = (message: string): MarketoApiError => new MarketoApiError("1003", message);
export const missing = (name: string): MarketoApiError =>
  new MarketoApiError("1002", `Missing value for the required parameter '${name}'`);

export function dateRange(raw: unknown, name: string): { from: number; to: number } {
  if (!isRecord(raw)) throw invalid(`${name} must be an object with startAt and endAt`);
  const bound = (key: "startAt" | "endAt") => {
    const value = raw[key];
    if (typeof value !== "string" || value === "") throw missing(`${name}.${key}`);
    const ms = parseMarketoDate(value);
    if (ms === undefined) throw invalid(`Invalid value '${value}' for ${name}.${key}`);
    return ms;
  };
  const from = bound("startAt");
  const to = bound("endAt");
  if (to < from) throw invalid(`${name}.endAt must not be before ${name}.startAt`);
  if (to - from > MAX_SPAN_MS) throw invalid(`The ${name} date range must be 31 days or fewer`);
  return { from, to };
}

export function intArray(raw: unknown, name: string, max: number): number[] {
  if (!Array.isArray(raw) || raw.some((v) => !Number.isInteger(v)))
    throw invalid(`${name} must be an array of integers`);
  if (raw.length > max) throw invalid(`Too many values for ${name}: ${raw.length}, maximum is ${max}`);
  return raw as number[];
}

/** A static or smart list filter (`staticListId`, `smartListName`…): the list must exist. */
export function listFilter(
  world: World,
  key: string,
  value: unknown,
): { list: "static" | "smart"; id?: number; name?: string } {
  const list = key.startsWith("static") ? "static" : "smart";
  const byId = key.endsWith("Id");
  if (byId ? !Number.isInteger(value) : typeof value !== "string" || value === "") {
    throw invalid(`Invalid value '${String(value)}' for ${key}`);
  }
  const pool: readonly { id: number; name: string }[] = list === "static" ? world.lists : world.smartLists;
  if (!pool.some((item) => (byId ? item.id === value : item.name === value))) {
    throw invalid(`${list === "static" ? "Static" : "Smart"} list '${String(value)}' not found`);
  }
  return byId ? { list, id: value as number } : { list, name: value as string };
}

/** The one filter type of a lead or custom object export, among `allowed`. */
export function oneFilter(filter: Record<string, unknown>, allowed: readonly string[]): string {
  const keys = Object.keys(filter);
  const unknown = keys.find((k) => !allowed.includes(k));
  if (unknown) throw invalid(`Invalid filter type '${unknown}'`);
  if (keys.length !== 1) throw invalid("Exactly one filter type is allowed per export job");
  return keys[0] as string;
}
