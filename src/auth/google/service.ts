import { ConfigurationError } from "../../errors.js";
import { DEFAULT_GOOGLE_ENDPOINTS, GOOGLE_ENDPOINT_VARIABLES, type GoogleEndpoints } from "./config.js";
import type { GoogleAccountRecord, GoogleService } from "./stored.js";

/**
 * A stored Google account is bound to the endpoints it was connected against: its refresh token
 * is only ever sent to the token endpoint that issued it, so an account connected to the sandbox
 * (GOOGLE_OAUTH_URL on 127.0.0.1) is never sent to Google, and a Google account never to a sandbox
 * or a proxy it was not connected through.
 *
 * Migration rule for records written before the service was recorded (no `service` field): they
 * were taken as Google's, and they still are. Such a record works against Google's own endpoints
 * exactly as before and is refused against any other, with one exception: an email on a domain
 * reserved for examples and tests (RFC 2606 and RFC 6761: .example, .test, .invalid, .localhost)
 * cannot be a Google account, so such a record was made by the sandbox and is refused everywhere.
 * Connecting or importing the account again records its service.
 */
const SERVICE_FIELDS = ["oauthUrl", "dataApiUrl", "adminApiUrl"] as const;

const RESERVED_DOMAIN = /\.(example|test|invalid|localhost)$/i;

export function serviceOf(endpoints: GoogleEndpoints): GoogleService {
  return {
    oauthUrl: endpoints.oauthUrl,
    dataApiUrl: endpoints.dataApiUrl,
    adminApiUrl: endpoints.adminApiUrl,
  };
}

export function isService(value: unknown): value is GoogleService {
  if (value === null || typeof value !== "object") return false;
  return SERVICE_FIELDS.every((field) => typeof (value as Record<string, unknown>)[field] === "string");
}

/** Why the account must not be used with these endpoints, or undefined when it may. */
export function serviceMismatch(record: GoogleAccountRecord, endpoints: GoogleEndpoints): string | undefined {
  const current = serviceOf(endpoints);
  if (!record.service && RESERVED_DOMAIN.test(record.email?.split("@")[1] ?? "")) {
    return `it was connected to a sandbox (${record.email} cannot be a Google account) before martech-steps recorded where accounts belong`;
  }
  const connected = record.service ?? serviceOf(DEFAULT_GOOGLE_ENDPOINTS);
  const differences = SERVICE_FIELDS.filter((field) => connected[field] !== current[field]).map(
    (field) =>
      `${GOOGLE_ENDPOINT_VARIABLES[field]} was ${connected[field]} when it was connected and is ${current[field]} now`,
  );
  if (differences.length === 0) return undefined;
  const legacy = record.service
    ? ""
    : " (recorded before martech-steps noted where accounts belong: taken as Google's)";
  return `${differences.join("; ")}${legacy}`;
}

/** Refuses an account whose token belongs to another service than the endpoints in use. */
export function checkAccountService(record: GoogleAccountRecord, endpoints: GoogleEndpoints): void {
  const mismatch = serviceMismatch(record, endpoints);
  if (!mismatch) return;
  const variables = SERVICE_FIELDS.map((field) => GOOGLE_ENDPOINT_VARIABLES[field]).join(", ");
  throw new ConfigurationError(
    `Google account "${record.label}" belongs to another service than the one in use, so its token is not sent: ${mismatch}.`,
    {
      hint: `Connect it again against the current endpoints (martech-steps accounts remove ${record.label}, then accounts connect or accounts import), or set ${variables} back to the values it was connected with.`,
      details: { account: record.label },
    },
  );
}
