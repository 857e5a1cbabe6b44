/**
 * Request validation with the wording of Google's front end (ESF) for JSON binding errors, and the Admin API's
 * field rules (https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1beta/properties).
 */
import { invalidArgument, isObject } from "../http.js";

export function snakeCase(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** ESF rejects JSON members that the message does not define. */
export function rejectUnknownFields(
  body: Record<string, unknown>,
  allowed: readonly string[],
  at: string,
): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) {
      throw invalidArgument(
        `Invalid JSON payload received. Unknown name "${key}" at '${at}': Cannot find field.`,
      );
    }
  }
}

/** A string member, or undefined when absent; any other JSON type is a binding error. */
export function optionalString(body: Record<string, unknown>, key: string, at: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") {
    throw invalidArgument(
      `Invalid value at '${at}.${snakeCase(key)}' (TYPE_STRING), ${JSON.stringify(value)}`,
    );
  }
  return value;
}

export function optionalObject(
  body: Record<string, unknown>,
  key: string,
  at: string,
): Record<string, unknown> | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) {
    throw invalidArgument(`Invalid value at '${at}.${snakeCase(key)}': expected a JSON object.`);
  }
  return value;
}

export function optionalEnum<T extends string>(
  body: Record<string, unknown>,
  key: string,
  at: string,
  values: readonly T[],
  enumType: string,
): T | undefined {
  const value = optionalString(body, key, at);
  if (value === undefined) return undefined;
  if (!(values as readonly string[]).includes(value)) {
    throw invalidArgument(
      `Invalid value at '${at}.${snakeCase(key)}' (type.googleapis.com/google.analytics.admin.v1beta.${enumType}), "${value}"`,
    );
  }
  return value as T;
}

export function requireNonEmpty(value: string | undefined, field: string, what: string): string {
  if (value === undefined || value.trim() === "") {
    throw invalidArgument(`${field} is required: ${what}`);
  }
  return value;
}

/** Display names are limited in UTF-16 code units, which is what String#length counts. */
export function checkMaxLength(value: string, max: number, field: string): void {
  if (value.length > max) {
    throw invalidArgument(
      `${field} is too long: at most ${max} UTF-16 code units are allowed, got ${value.length}.`,
    );
  }
}

const TIME_ZONES = new Set(Intl.supportedValuesOf("timeZone"));
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/** IANA names, including aliases Intl knows but does not list (e.g. "UTC", "Asia/Calcutta"); no raw offsets. */
export function isTimeZone(value: string): boolean {
  if (TIME_ZONES.has(value)) return true;
  if (!ZONE_NAME.test(value)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export function isCurrencyCode(value: string): boolean {
  return CURRENCIES.has(value);
}

export function checkTimeZone(value: string, field: string): void {
  if (!isTimeZone(value)) {
    throw invalidArgument(
      `${field} "${value}" is not a valid time zone: use an IANA time zone name such as "America/Los_Angeles" or "Europe/Paris".`,
    );
  }
}

export function checkCurrency(value: string, field: string): void {
  if (!isCurrencyCode(value)) {
    throw invalidArgument(
      `${field} "${value}" is not a valid currency code: use an ISO 4217 code such as "USD", "EUR" or "JPY".`,
    );
  }
}

/**
 * The required `updateMask` query parameter: comma-separated snake_case field paths, or "*" for every field.
 * Returns the set of paths; "*" expands to `mutable`.
 */
export function parseUpdateMask(
  url: URL,
  mutable: readonly string[],
  immutable: readonly string[],
): Set<string> {
  const raw = url.searchParams.get("updateMask") ?? url.searchParams.get("update_mask") ?? "";
  const paths = raw
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  if (paths.length === 0) {
    throw invalidArgument(
      `updateMask is required: list the fields to change in snake_case (e.g. updateMask=${mutable.slice(0, 2).join(",")}), or "*" to replace every field.`,
    );
  }
  if (paths.includes("*")) return new Set(mutable);
  for (const path of paths) {
    if (immutable.includes(path)) {
      throw invalidArgument(`Field "${path}" is immutable or output only and cannot be in updateMask.`);
    }
    if (!mutable.includes(path)) {
      const hint = mutable.includes(snakeCase(path))
        ? ` Field names must be snake_case: use "${snakeCase(path)}".`
        : "";
      throw invalidArgument(
        `updateMask field "${path}" is not a field that can be updated.${hint} Updatable fields: ${mutable.join(", ")}.`,
      );
    }
  }
  return new Set(paths);
}
