/**
 * Revocation that takes effect at once on /mcp. The embedded server's access tokens are JWTs (RFC 9068),
 * valid 15 minutes and never stored, so by themselves they outlive what ended them. Each carries the id of
 * the grant it was issued under (GRANT_CLAIM), and /mcp asks the store, in this process, whether that grant is
 * still held and the token's `jti` was not revoked: one map lookup each per request. A grant goes when its
 * refresh token is revoked (RFC 7009), when a used code or refresh token is presented again
 * (oidc-provider's replay detection), or when it expires; a revoked access token (RFC 7009, which
 * oidc-provider answers `unsupported_token_type` for a JWT: provider-middleware.ts passes it here) is
 * recorded until it expires, or, should that table be full, its whole grant is revoked instead.
 */
import { type JWTPayload, type JWTVerifyGetKey, jwtVerify } from "jose";
import type { MemoryStore } from "./memory-store.js";
import { StoreRefusal } from "./memory-store.js";

/** The claim naming the grant an access token was issued under. */
export const GRANT_CLAIM = "martech_steps_grant";
/** The store's kind for revoked access tokens (by jti), held until each expires. */
export const REVOKED_KIND = "RevokedAccessToken";
/** Every kind that belongs to a grant and goes with it. */
const GRANT_KINDS = ["RefreshToken", "AuthorizationCode", "AccessToken"];

export class AccessTokenRevocation {
  readonly #store: MemoryStore;
  readonly #issuer: string;
  readonly #keys: JWTVerifyGetKey;
  readonly #now: () => number;

  constructor(store: MemoryStore, issuer: string, keys: JWTVerifyGetKey, now: () => number = Date.now) {
    this.#store = store;
    this.#issuer = issuer;
    this.#keys = keys;
    this.#now = now;
  }

  /** /mcp's check of a validated token of this server: its grant is held and it was not revoked. */
  isLive(claims: JWTPayload): boolean {
    const grant = claims[GRANT_CLAIM];
    if (typeof grant !== "string" || !this.#store.has("Grant", grant)) return false;
    return typeof claims.jti !== "string" || !this.#store.has(REVOKED_KIND, claims.jti);
  }

  /**
   * RFC 7009 for a JWT access token presented by `clientId` (authenticated by oidc-provider). A token of
   * another client, or one that is not this server's valid token, changes nothing: the endpoint answers
   * 200 all the same (RFC 7009 section 2.2), as oidc-provider does for its own tokens.
   */
  async revoke(token: string, clientId: string): Promise<void> {
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(token, this.#keys, {
        issuer: this.#issuer,
        typ: "at+jwt",
        currentDate: new Date(this.#now()),
      }));
    } catch {
      return;
    }
    if (claims.client_id !== clientId || typeof claims.jti !== "string" || typeof claims.exp !== "number")
      return;
    const left = claims.exp - Math.floor(this.#now() / 1000);
    const grant = typeof claims[GRANT_CLAIM] === "string" ? claims[GRANT_CLAIM] : undefined;
    try {
      this.#store.set(REVOKED_KIND, claims.jti, { ...(grant ? { grantId: grant } : {}) }, Math.max(left, 1));
    } catch (error) {
      if (!(error instanceof StoreRefusal)) throw error;
      if (grant) this.revokeGrant(grant);
    }
  }

  /** A grant and every token issued under it. */
  revokeGrant(grantId: string): void {
    this.#store.delete("Grant", grantId);
    for (const kind of GRANT_KINDS) this.#store.revokeByGrantId(kind, grantId);
  }
}
