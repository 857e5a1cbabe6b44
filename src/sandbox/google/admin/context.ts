/**
 * What every Admin API handler shares: the world, caller authentication (token + OAuth scope), role checks
 * and resource lookups, each failing with the google.rpc.Status the real API returns.
 */
import type { IncomingMessage } from "node:http";
import { notFound, RpcError } from "../http.js";
import type { WorldAccount, WorldProperty } from "../model.js";
import type { TokenStore } from "../oauth-tokens.js";
import { type Role, SCOPE_EDIT, SCOPE_FULL, SCOPE_READONLY, type TokenOwner } from "../types.js";
import { type GoogleWorld, roleAtLeast } from "../world.js";

export interface AdminContext {
  world: GoogleWorld;
  tokens: TokenStore;
  now(): number;
}

export interface AdminRequest {
  ctx: AdminContext;
  req: IncomingMessage;
  url: URL;
  body: string;
  /** Path parameters captured by the router, e.g. { property: "412345678" }. */
  params: Record<string, string>;
  /** The router's INVALID_ARGUMENT for an id in the path that is not a number, thrown once authorized. */
  malformed?: RpcError;
}

const SERVICE = "analyticsadmin.googleapis.com";
const RPC_PREFIX = "google.analytics.admin.v1beta.AnalyticsAdminService.";

/**
 * Per-method scopes from the discovery document: reads accept analytics.readonly or analytics.edit (and the
 * full analytics scope), every create/patch/delete needs analytics.edit.
 */
const READ_SCOPES = [SCOPE_READONLY, SCOPE_EDIT, SCOPE_FULL];
const WRITE_SCOPES = [SCOPE_EDIT];

const AUTH_HINT =
  "Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.";

/**
 * Authenticates the caller and checks the token's scopes for the RPC (e.g. "CreateProperty"); then
 * refuses a malformed resource name, which Google checks after the credentials.
 */
export function authorize(
  r: Pick<AdminRequest, "ctx" | "req" | "malformed">,
  rpc: string,
  write: boolean,
): TokenOwner {
  const header = r.req.headers.authorization;
  const owner = r.ctx.tokens.authenticate(header);
  if (!owner) {
    const message = header
      ? `Request had invalid authentication credentials. ${AUTH_HINT}`
      : `Request is missing required authentication credential. ${AUTH_HINT}`;
    throw new RpcError(
      401,
      "UNAUTHENTICATED",
      message,
      header ? [] : [errorInfo("CREDENTIALS_MISSING", rpc)],
      { "www-authenticate": 'Bearer realm="https://accounts.google.com/"' },
    );
  }
  const accepted = write ? WRITE_SCOPES : READ_SCOPES;
  if (!owner.scopes.some((s) => accepted.includes(s))) {
    throw new RpcError(
      403,
      "PERMISSION_DENIED",
      "Request had insufficient authentication scopes.",
      [errorInfo("ACCESS_TOKEN_SCOPE_INSUFFICIENT", rpc)],
      {
        "www-authenticate": `Bearer realm="https://accounts.google.com/", error="insufficient_scope", scope="${accepted.join(" ")}"`,
      },
    );
  }
  if (r.malformed) throw r.malformed;
  return owner;
}

function errorInfo(reason: string, rpc: string): Record<string, unknown> {
  return {
    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
    reason,
    domain: "googleapis.com",
    metadata: { service: SERVICE, method: `${RPC_PREFIX}${rpc}` },
  };
}

export function permissionDenied(): RpcError {
  return new RpcError(403, "PERMISSION_DENIED", "The caller does not have permission");
}

export function requireAccountRole(
  ctx: AdminContext,
  caller: TokenOwner,
  accountId: string,
  needed: Role,
): WorldAccount {
  const account = ctx.world.account(accountId);
  if (!account) throw notFound();
  if (!roleAtLeast(ctx.world.roleOf(caller.email, accountId), needed)) throw permissionDenied();
  return account;
}

/** An account the caller holds at least `needed` on that is not in the trash can: it takes no changes. */
export function requireLiveAccount(
  ctx: AdminContext,
  caller: TokenOwner,
  accountId: string,
  needed: Role,
): WorldAccount {
  const account = requireAccountRole(ctx, caller, accountId, needed);
  if (account.deleted)
    throw new RpcError(404, "NOT_FOUND", `Account accounts/${account.id} is in the trash can.`);
  return account;
}

/**
 * A property the caller holds at least `needed` on. Trashed properties can still be read (the trash can is
 * inspectable for 35 days) but not changed, and their sub-resources are gone.
 */
export function requireProperty(
  ctx: AdminContext,
  caller: TokenOwner,
  propertyId: string,
  needed: Role,
  allowTrashed = false,
): WorldProperty {
  const property = ctx.world.property(propertyId);
  if (!property) throw notFound();
  if (!roleAtLeast(ctx.world.roleOf(caller.email, property.accountId), needed)) throw permissionDenied();
  if (property.deleted && !allowTrashed) {
    throw new RpcError(404, "NOT_FOUND", `Property properties/${propertyId} is in the trash can.`);
  }
  return property;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
