/**
 * Service accounts of the OAuth emulator: JSON key files it issues (an RSA key pair per key, the
 * private half handed out once, as the Cloud console does), and the JWT bearer grant that exchanges a
 * signed assertion for an access token (RFC 7523; Google's rules in
 * https://developers.google.com/identity/protocols/oauth2/service-account: RS256 with the key named
 * by `kid`, iss = the service account's email, aud = the token endpoint, scope required, exp at most
 * one hour after iat, sub only with domain-wide delegation).
 *
 * Google's answers emulated: a signature that fails, or a key disabled or deleted, is
 * `invalid_grant: Invalid JWT Signature.` (what a deleted key gets:
 * https://github.com/crossplane-contrib/provider-jet-gcp/issues/56); times out of range are
 * `invalid_grant: Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable
 * timeframe...` (https://github.com/erebusnz/gapi-google-analytics-php-interface/issues/147); delegation
 * not granted is `unauthorized_client`. Inferred: the wording for a wrong audience, a missing scope
 * and an unknown subject.
 */
import { generateKeyPair, type KeyObject, randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { decodeProtectedHeader, errors, jwtVerify } from "jose";
import { normaliseScopes } from "./oauth-tokens.js";
import type { Role } from "./types.js";

export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

export interface ServiceAccountOptions {
  /** The part before @; default "sandbox-reporter". The email is <name>@sandbox-project.iam.gserviceaccount.com. */
  name?: string;
  /** Roles per Google Analytics account id, as if its email were added there; default none. */
  roles?: Record<string, Role>;
  /** Scopes a Workspace administrator delegated to it (domain-wide delegation); default none. */
  delegatedScopes?: string[];
}

/** The JSON key file, with the fields of Google's (type, project_id, private_key_id, ...). */
export type ServiceAccountKeyFile = Record<string, string>;

interface IssuedKey {
  email: string;
  clientId: string;
  publicKey: KeyObject;
  state: "enabled" | "disabled" | "deleted";
  delegatedScopes: string[];
}

export type AssertionResult =
  | { ok: true; email: string; clientId: string; scopes: string[] }
  | { ok: false; status: number; error: string; description: string };

const PROJECT = "sandbox-project";
const SHORT_LIVED =
  "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.";
/** Google allows a little clock skew; five minutes, as google-auth-library's own leeway. */
const SKEW_S = 300;

export class ServiceAccounts {
  readonly #keys = new Map<string, IssuedKey>();
  #nextClientId = 104_000_000_000_000_000_001n;

  constructor(
    private readonly tokenUrl: () => string,
    private readonly users: {
      addUser(email: string, roles: Record<string, Role>): void;
      hasUser(email: string): boolean;
    },
  ) {}

  /** Async: the RSA key pair is made on the thread pool, so a busy sandbox keeps answering meanwhile. */
  async issue(options: ServiceAccountOptions = {}): Promise<ServiceAccountKeyFile> {
    const email = `${options.name ?? "sandbox-reporter"}@${PROJECT}.iam.gserviceaccount.com`;
    this.users.addUser(email, options.roles ?? {});
    const existing = [...this.#keys.values()].find((key) => key.email === email);
    const clientId = existing?.clientId ?? String(this.#nextClientId++);
    const { publicKey, privateKey } = await promisify(generateKeyPair)("rsa", { modulusLength: 2048 });
    const keyId = randomBytes(20).toString("hex");
    const { scopes: delegatedScopes } = normaliseScopes((options.delegatedScopes ?? []).join(" "));
    this.#keys.set(keyId, { email, clientId, publicKey, state: "enabled", delegatedScopes });
    const tokenUri = this.tokenUrl();
    return {
      type: "service_account",
      project_id: PROJECT,
      private_key_id: keyId,
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      client_email: email,
      client_id: clientId,
      auth_uri: tokenUri.replace(/\/token$/, "/authorize"),
      token_uri: tokenUri,
      universe_domain: "googleapis.com",
    };
  }

  /** As disabling (or deleting) the key in the Cloud console: its assertions are refused from now on. */
  setKeyState(keyId: string, state: "disabled" | "deleted"): void {
    const key = this.#keys.get(keyId);
    if (!key) throw new Error(`No sandbox service account key has the id ${keyId}.`);
    key.state = state;
  }

  async verify(assertion: string, nowMs: number): Promise<AssertionResult> {
    const refuse = (error: string, description: string, status = 400): AssertionResult => ({
      ok: false,
      status,
      error,
      description,
    });
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(assertion).kid;
    } catch {
      return refuse("invalid_grant", "Invalid JWT: the assertion is not a JWT.");
    }
    const key = kid ? this.#keys.get(kid) : undefined;
    if (key?.state !== "enabled") return refuse("invalid_grant", "Invalid JWT Signature.");
    let claims: Record<string, unknown>;
    try {
      const verified = await jwtVerify(assertion, key.publicKey, {
        algorithms: ["RS256"],
        issuer: key.email,
        currentDate: new Date(nowMs),
        clockTolerance: SKEW_S,
        requiredClaims: ["iat", "exp", "aud"],
      });
      claims = verified.payload as Record<string, unknown>;
    } catch (error) {
      if (error instanceof errors.JWTExpired) return refuse("invalid_grant", SHORT_LIVED);
      if (error instanceof errors.JWTClaimValidationFailed && error.claim === "iss") {
        return refuse("invalid_grant", "Invalid JWT Signature.");
      }
      if (error instanceof errors.JWTClaimValidationFailed)
        return refuse("invalid_grant", `Invalid JWT: ${error.message}`);
      return refuse("invalid_grant", "Invalid JWT Signature.");
    }
    return this.#checkClaims(key, claims, nowMs, refuse);
  }

  #checkClaims(
    key: IssuedKey,
    claims: Record<string, unknown>,
    nowMs: number,
    refuse: (error: string, description: string, status?: number) => AssertionResult,
  ): AssertionResult {
    if (claims.aud !== this.tokenUrl()) {
      return refuse(
        "invalid_grant",
        `Invalid JWT: Failed audience check. The expected value was ${this.tokenUrl()}.`,
      );
    }
    const iat = Number(claims.iat);
    const exp = Number(claims.exp);
    const now = nowMs / 1000;
    if (!(exp > iat) || exp - iat > 3600 || iat > now + SKEW_S) return refuse("invalid_grant", SHORT_LIVED);
    const raw = typeof claims.scope === "string" ? claims.scope : "";
    const { scopes, unknown } = normaliseScopes(raw);
    if (scopes.length === 0 && unknown.length === 0)
      return refuse("invalid_scope", "Empty or missing scope not allowed.");
    if (unknown.length > 0)
      return refuse("invalid_scope", "Invalid OAuth scope or ID token audience provided.");
    const subject = typeof claims.sub === "string" ? claims.sub.toLowerCase() : undefined;
    if (subject === undefined || subject === key.email) {
      return { ok: true, email: key.email, clientId: key.clientId, scopes };
    }
    if (scopes.some((scope) => !key.delegatedScopes.includes(scope))) {
      return refuse(
        "unauthorized_client",
        "Client is unauthorized to retrieve access tokens using this method, or client not authorized for any of the scopes requested.",
        401,
      );
    }
    if (!this.users.hasUser(subject)) return refuse("invalid_grant", "Invalid email or User ID");
    return { ok: true, email: subject, clientId: key.clientId, scopes };
  }
}
