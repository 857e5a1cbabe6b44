/**
 * /mcp as an OAuth 2.1 protected resource (MCP authorization,
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization): its Protected Resource
 * Metadata (RFC 9728, https://www.rfc-editor.org/rfc/rfc9728), the bearer challenges (RFC 6750 section 3,
 * https://www.rfc-editor.org/rfc/rfc6750#section-3: 401 invalid_token, 403 insufficient_scope, each with
 * resource_metadata and the scope to ask for), and the validation of a JWT access token with jose: the
 * issuer's signature, `iss`, `aud` equal to this server's canonical /mcp URI (RFC 8707 section 2,
 * https://www.rfc-editor.org/rfc/rfc8707#section-2, so a token minted for another server is refused),
 * `exp` with a little clock skew, an `iat` not in the future, and the workspace from a configured claim.
 * Explicit typing (RFC 9068 section 4, https://www.rfc-editor.org/rfc/rfc9068#section-4): the embedded
 * server's own tokens must say `typ: at+jwt`, and live no longer than it issues them for, and their grant
 * must still be held (revocation.ts). An external issuer's tokens may say `at+jwt` or, from issuers that
 * predate RFC 9068, `JWT` or nothing (Microsoft Entra ID's are "always JWT":
 * https://learn.microsoft.com/en-us/entra/identity-platform/access-token-claims-reference#header-claims);
 * any other declared type (an ID token's `id_token+jwt`, a logout or DPoP token) is refused. What confuses
 * an ID token with an access token is its audience (the client, never this /mcp URI), which is checked.
 */
import { getOAuthProtectedResourceMetadataUrl } from "@modelcontextprotocol/server";
import { type JWTPayload, errors as joseErrors, jwtVerify } from "jose";
import { checkWorkspaceName } from "../../auth/store-core.js";
import { log } from "../../log.js";
import { DEFAULT_WORKSPACE } from "../../workspace.js";
import type { IssuerKeys } from "./issuer.js";
import { type Access, allows, SCOPES_SUPPORTED, scopesFor } from "./scopes.js";

/** Clocks of two machines differ a little; a token is accepted this long past its `exp` (and before its `nbf`). */
export const CLOCK_TOLERANCE_SECONDS = 30;

/** Signatures accepted: asymmetric only, so no shared secret can sign a token (RFC 9068 section 4 asks for RS256 at least). */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];

export interface ProtectedResourceOptions {
  /** The authorization server that signs the tokens (its issuer identifier). */
  issuer: string;
  /** This resource's canonical URI: the /mcp URL clients use, and the `aud` a token must carry. */
  audience: string;
  /** The claim naming the workspace; unset = every token is the default workspace's. */
  workspaceClaim?: string | undefined;
  /** The issuer's keys (an external issuer's, found from its metadata; the embedded server's own). */
  keys: () => Promise<IssuerKeys>;
  /** The current time (tests move it). */
  now?: () => Date;
  /** The embedded server's own tokens: `typ: at+jwt` required, their lifetime, and whether each still holds. */
  ownTokens?: {
    maxLifetimeSeconds: number;
    isLive(claims: JWTPayload): boolean;
  };
}

/** Declared types an external issuer's access token may carry (compared lowercase, "application/" dropped). */
const EXTERNAL_TYPES = new Set(["at+jwt", "jwt"]);

export type Decision =
  | { ok: true; workspace: string; clientId: string; scopes: string[] }
  | { ok: false; status: 401 | 403 | 503; message: string; challenge?: string };

interface Claims {
  scope?: unknown;
  scp?: unknown;
  client_id?: unknown;
  azp?: unknown;
  [claim: string]: unknown;
}

/** A challenge parameter's value: RFC 6750's quoted string, with nothing a quote could end. */
function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, "")}"`;
}

export class ProtectedResource {
  readonly #options: ProtectedResourceOptions;
  /** Where the metadata is served (RFC 9728 section 3.1: the well-known path inserted before /mcp). */
  readonly metadataUrl: string;

  constructor(options: ProtectedResourceOptions) {
    this.#options = options;
    this.metadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(options.audience));
  }

  /** The Protected Resource Metadata document (RFC 9728 section 2). */
  metadata(): Record<string, unknown> {
    return {
      resource: this.#options.audience,
      authorization_servers: [this.#options.issuer],
      scopes_supported: [...SCOPES_SUPPORTED],
      bearer_methods_supported: ["header"],
      resource_name: "martech-steps",
    };
  }

  /** A WWW-Authenticate value naming this resource's metadata and the scopes to ask for. */
  challenge(scope: string, error?: string, description?: string): string {
    const parts = [`resource_metadata=${quoted(this.metadataUrl)}`, `scope=${quoted(scope)}`];
    if (error) parts.push(`error=${quoted(error)}`);
    if (description) parts.push(`error_description=${quoted(description)}`);
    return `Bearer ${parts.join(", ")}`;
  }

  /** Refusal of a request without a token: 401 with the challenge that starts the client's sign-in. */
  missing(): Decision {
    return {
      ok: false,
      status: 401,
      message:
        "Unauthorized: sign in through this server's authorization server (see WWW-Authenticate), or send an API key.",
      challenge: this.challenge(scopesFor("all")),
    };
  }

  /** Validates an access token for a request that needs `access`. */
  async authorize(token: string, access: Access): Promise<Decision> {
    let claims: Claims;
    try {
      const { issuer, keys } = await this.#options.keys();
      const own = this.#options.ownTokens;
      const { payload, protectedHeader } = await jwtVerify(token, keys, {
        issuer,
        audience: this.#options.audience,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: own ? ["exp", "iat"] : ["exp"],
        // With a maximum age jose also refuses an `iat` in the future (beyond the tolerance).
        ...(own ? { typ: "at+jwt", maxTokenAge: own.maxLifetimeSeconds } : {}),
        ...(this.#options.now ? { currentDate: this.#options.now() } : {}),
      });
      claims = payload as Claims;
      const wrong = this.#wrongTiming(payload) ?? (own ? undefined : externalType(protectedHeader.typ));
      if (wrong) return this.#invalid(wrong);
      if (own && !own.isLive(payload))
        return this.#invalid("the token was revoked, or its sign-in has ended");
    } catch (error) {
      return this.#refusal(error);
    }
    const workspace = this.#workspace(claims);
    if (!workspace)
      return this.#invalid(`the token names no workspace in its ${this.#options.workspaceClaim} claim`);
    const scopes = scopesOf(claims);
    if (!allows(scopes, access)) return this.insufficient(access);
    const clientId = typeof claims.client_id === "string" ? claims.client_id : String(claims.azp ?? "");
    return { ok: true, workspace, clientId, scopes };
  }

  /** Refusal of a valid token whose scopes do not allow `access`: 403 naming the scope to ask for. */
  insufficient(access: Access): Decision {
    const needed = scopesFor(access);
    return {
      ok: false,
      status: 403,
      message: `Forbidden: this request needs the scope ${needed}; sign in again granting it.`,
      challenge: this.challenge(needed, "insufficient_scope", `this request needs ${needed}`),
    };
  }

  /** An `iat` in the future, or (own tokens) a lifetime longer than the server issues: the reason, else undefined. */
  #wrongTiming(claims: JWTPayload): string | undefined {
    const { iat, exp } = claims;
    if (iat === undefined) return undefined;
    const now = Math.floor((this.#options.now?.() ?? new Date()).getTime() / 1000);
    if (iat > now + CLOCK_TOLERANCE_SECONDS) return "the token's iat claim is in the future";
    const max = this.#options.ownTokens?.maxLifetimeSeconds;
    if (max !== undefined && typeof exp === "number" && exp - iat > max)
      return `the token lives longer than this server issues tokens for (${max} s)`;
    return undefined;
  }

  #workspace(claims: Claims): string | undefined {
    const claim = this.#options.workspaceClaim;
    if (!claim) return DEFAULT_WORKSPACE;
    const value = claims[claim];
    if (typeof value !== "string") return undefined;
    try {
      return checkWorkspaceName(value);
    } catch {
      return undefined;
    }
  }

  #invalid(reason: string): Decision {
    return {
      ok: false,
      status: 401,
      message: `Unauthorized: ${reason}. Sign in again.`,
      challenge: this.challenge(scopesFor("all"), "invalid_token", reason),
    };
  }

  /** A failed validation as its refusal: a bad token is 401 invalid_token; keys that cannot be read, 503. */
  #refusal(error: unknown): Decision {
    if (error instanceof joseErrors.JWTExpired) return this.#invalid("the token has expired");
    if (error instanceof joseErrors.JWTClaimValidationFailed) {
      if (error.claim === "aud")
        return this.#invalid(`the token is not for this server (${this.#options.audience})`);
      if (error.claim === "iss") return this.#invalid("the token is from another issuer");
      if (error.claim === "typ") return this.#invalid('the token is not an access token (typ "at+jwt")');
      if (error.claim === "iat") return this.#invalid("the token's iat claim is in the future");
      return this.#invalid(`the token's ${error.claim} claim is not valid (${error.reason})`);
    }
    if (error instanceof joseErrors.JWKSTimeout || !(error instanceof joseErrors.JOSEError)) {
      log.warn({ err: error }, "OAuth: the issuer's signing keys could not be read");
      return {
        ok: false,
        status: 503,
        message:
          "Service unavailable: the authorization server's signing keys could not be read. Retry later; the operator checks MARTECH_STEPS_OAUTH_ISSUER.",
      };
    }
    // A forged or damaged signature, a key the issuer does not publish, a token that is not a signed JWT.
    return this.#invalid("the token's signature is not valid");
  }
}

/** An external issuer's declared type, when it is one this server refuses: the reason, else undefined. */
function externalType(typ: string | undefined): string | undefined {
  if (typ === undefined) return undefined;
  const normal = typ.toLowerCase().replace(/^application\//, "");
  return EXTERNAL_TYPES.has(normal)
    ? undefined
    : `the token's type (typ "${typ.slice(0, 40).replace(/[^\x21-\x7e]/g, "?")}") is not an access token's`;
}

/** Granted scopes: RFC 9068's space-separated `scope`, or an `scp` array (Okta, Microsoft Entra ID). */
function scopesOf(claims: Claims): string[] {
  if (typeof claims.scope === "string") return claims.scope.split(" ").filter(Boolean);
  if (Array.isArray(claims.scp)) return claims.scp.filter((s): s is string => typeof s === "string");
  return [];
}
