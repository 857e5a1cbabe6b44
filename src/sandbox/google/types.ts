/**
 * The contract between the parts of the Google sandbox: the OAuth + Admin API side owns the "world"
 * (accounts, properties, users, roles, tokens, key events); the Data API side computes reports over a
 * seeded event data set per property. Both are mounted on one node:http server under path prefixes
 * (/oauth, /admin, /data) so one port serves all three real hosts.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export type Role = "viewer" | "editor" | "administrator";

export const SCOPE_READONLY = "https://www.googleapis.com/auth/analytics.readonly";
export const SCOPE_EDIT = "https://www.googleapis.com/auth/analytics.edit";
export const SCOPE_FULL = "https://www.googleapis.com/auth/analytics";

/** Who a valid access token belongs to. */
export interface TokenOwner {
  email: string;
  scopes: readonly string[];
}

export interface SandboxProperty {
  id: string; // numeric string, e.g. "412345678"
  accountId: string; // numeric string
  displayName: string;
  timeZone: string; // IANA
  currencyCode: string; // ISO 4217
  industryCategory?: string;
  createTime: string; // RFC 3339
  deleted: boolean;
}

/** A custom dimension or metric registered through the Admin API, as the Data API sees it. */
export interface CustomDefinition {
  parameterName: string;
  displayName: string;
  description?: string;
  /** EVENT, USER or ITEM for dimensions; custom metrics are EVENT-scoped. */
  scope: "EVENT" | "USER" | "ITEM";
  /** Metrics only: the CustomMetric measurementUnit (STANDARD, CURRENCY, SECONDS, ...). */
  measurementUnit?: string;
}

export interface CustomDefinitions {
  dimensions: readonly CustomDefinition[];
  metrics: readonly CustomDefinition[];
}

/** What the Data API needs from the world. */
export interface DataApiContext {
  /** Resolves `Authorization: Bearer x`; undefined when missing, unknown or expired (→ 401 UNAUTHENTICATED). */
  authenticate(authorization: string | undefined): TokenOwner | undefined;
  /** A live (not deleted) property, or undefined. */
  property(propertyId: string): SandboxProperty | undefined;
  /** The caller's role on the property's account, or undefined (→ 403 PERMISSION_DENIED). */
  roleOf(email: string, accountId: string): Role | undefined;
  /** Event names currently marked as key events in the property (feeds the keyEvents metric). */
  keyEventNames(propertyId: string): readonly string[];
  /** Custom definitions of the property (getMetadata lists them; reports accept them). None when absent. */
  customDefinitions?(propertyId: string): CustomDefinitions;
  /** Notes that a user read reporting data of a property (the Admin API's data access reports). */
  recordAccess?(access: { email: string; propertyId: string; at: number; realtime: boolean }): void;
  now(): number;
}

/** A sub-application mounted under a prefix; `path` is the request path with the prefix removed. */
export type SubHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  url: URL,
  body: string,
) => Promise<void>;
