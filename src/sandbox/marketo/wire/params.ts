/**
 * Parameter parsing shared by the resource handlers, with the error codes the real service uses:
 * 701 for a blank required parameter, 1003 for an invalid value.
 */

import { MarketoApiError } from "../types.js";
import { base32Decode, base32Encode } from "./codec.js";

/** Lead DB batch limit: `batchSize`, `filterValues`, sync `input`, list ids (ADE rest-api.md "Limits"). */
export const LEAD_DB_MAX_BATCH = 300;

/** Values of a parameter given repeated (`id=1&id=2`), comma-separated (`id=1,2`), or both. */
export function multi(params: URLSearchParams, name: string): string[] {
  return params
    .getAll(name)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter((v) => v !== "");
}

export function required(params: URLSearchParams, name: string): string {
  const value = params.get(name);
  if (value === null || value.trim() === "") throw new MarketoApiError("701", `${name} cannot be blank`);
  return value;
}

export function toInt(text: string, name: string): number {
  if (!/^-?\d+$/.test(text.trim())) throw new MarketoApiError("1003", `Invalid value '${text}' for ${name}`);
  return Number(text);
}

export function intList(params: URLSearchParams, name: string, max: number): number[] {
  const values = multi(params, name).map((v) => toInt(v, name));
  if (values.length > max) {
    throw new MarketoApiError("1003", `Too many values for ${name}: ${values.length}, maximum is ${max}`);
  }
  return values;
}

/** An optional integer parameter within [min, max], or the default. */
export function boundedInt(
  params: URLSearchParams,
  name: string,
  dflt: number,
  min: number,
  max: number,
): number {
  const raw = params.get(name);
  if (raw === null || raw === "") return dflt;
  const value = toInt(raw, name);
  if (value < min || value > max) {
    throw new MarketoApiError(
      "1003",
      `Invalid value '${raw}' for ${name}, must be between ${min} and ${max}`,
    );
  }
  return value;
}

export function batchSize(params: URLSearchParams): number {
  return boundedInt(params, "batchSize", LEAD_DB_MAX_BATCH, 1, LEAD_DB_MAX_BATCH);
}

/** Opaque position tokens for Lead DB paging (leads, list members, lists, campaigns). */
export function encodePosition(kind: string, offset: number): string {
  return base32Encode(`${kind}|${offset}|sbx`);
}

export function decodePosition(kind: string, token: string | null): number {
  if (token === null || token === "") return 0;
  const match = /^([a-z]+)\|(\d+)\|sbx$/.exec(base32Decode(token) ?? "");
  if (!match || match[1] !== kind) throw new MarketoApiError("1003", `Invalid nextPageToken '${token}'`);
  return Number(match[2]);
}

/** One page of `items` from the token's position, with `nextPageToken` only while more remain. */
export function pageByToken<T>(
  items: readonly T[],
  params: URLSearchParams,
  kind: string,
): { page: T[]; nextPageToken?: string } {
  const size = batchSize(params);
  const offset = decodePosition(kind, params.get("nextPageToken"));
  const page = items.slice(offset, offset + size);
  const end = offset + page.length;
  return end < items.length ? { page, nextPageToken: encodePosition(kind, end) } : { page };
}

/** Parses a JSON request body; 609 on malformed JSON, as the real service answers. */
export function jsonBody(body: string): unknown {
  if (body.trim() === "") return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new MarketoApiError("609", "Invalid JSON");
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
