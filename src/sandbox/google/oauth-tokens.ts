/**
 * Grants of the OAuth emulator: authorization codes, refresh tokens and access tokens, with Google's
 * lifetimes and revocation rules (https://developers.google.com/identity/protocols/oauth2/native-app).
 */
import { createHash, randomUUID } from "node:crypto";
import { SCOPE_EDIT, SCOPE_FULL, SCOPE_READONLY, type TokenOwner } from "./types.js";

export const SCOPE_OPENID = "openid";
export const SCOPE_EMAIL = "https://www.googleapis.com/auth/userinfo.email";

/** Google accepts the short "email" alias and reports the canonical userinfo.email scope back. */
const SCOPE_ALIASES: Record<string, string> = { email: SCOPE_EMAIL, openid: SCOPE_OPENID };
const KNOWN_SCOPES = new Set([SCOPE_READONLY, SCOPE_EDIT, SCOPE_FULL, SCOPE_OPENID, SCOPE_EMAIL]);

export const DEFAULT_GRANT_SCOPES: readonly string[] = [
  SCOPE_READONLY,
  SCOPE_EDIT,
  SCOPE_OPENID,
  SCOPE_EMAIL,
];

/** Authorization codes live 10 minutes (RFC 6749 §4.1.2 recommends at most that). */
const CODE_TTL_MS = 10 * 60 * 1000;

/** Splits and canonicalises a space-separated scope string; unknown scopes are returned separately. */
export function normaliseScopes(raw: string): { scopes: string[]; unknown: string[] } {
  const scopes: string[] = [];
  const unknown: string[] = [];
  for (const part of raw.split(/\s+/).filter(Boolean)) {
    const scope = SCOPE_ALIASES[part] ?? part;
    if (!KNOWN_SCOPES.has(scope)) unknown.push(part);
    else if (!scopes.includes(scope)) scopes.push(scope);
  }
  return { scopes, unknown };
}

export interface AuthCode {
  clientId: string;
  redirectUri: string;
  email: string;
  scopes: string[];
  challenge: string;
  offline: boolean;
  expiresAt: number;
}

export interface RefreshGrant {
  email: string;
  clientId: string;
  scopes: string[];
  revoked: boolean;
}

export interface AccessGrant {
  email: string;
  clientId: string;
  scopes: string[];
  expiresAt: number;
  offline: boolean;
  refreshToken?: string;
}

export class TokenStore {
  private readonly codes = new Map<string, AuthCode>();
  private readonly refreshTokens = new Map<string, RefreshGrant>();
  private readonly accessTokens = new Map<string, AccessGrant>();
  /** (client, user) pairs that already consented offline: Google returns a refresh token only the first time. */
  private readonly offlineConsents = new Set<string>();

  constructor(
    private readonly now: () => number,
    private readonly accessTtlSeconds: number,
  ) {}

  get ttlSeconds(): number {
    return this.accessTtlSeconds;
  }

  issueCode(grant: Omit<AuthCode, "expiresAt">): string {
    const code = `4/0${randomUUID().replaceAll("-", "")}`;
    this.codes.set(code, { ...grant, expiresAt: this.now() + CODE_TTL_MS });
    return code;
  }

  /** Codes are single-use: taking one removes it whether or not the exchange then succeeds. */
  takeCode(code: string): AuthCode | undefined {
    const grant = this.codes.get(code);
    this.codes.delete(code);
    if (!grant || grant.expiresAt <= this.now()) return undefined;
    return grant;
  }

  hasOfflineConsent(clientId: string, email: string): boolean {
    return this.offlineConsents.has(`${clientId}\n${email}`);
  }

  issueRefreshToken(email: string, clientId: string, scopes: readonly string[]): string {
    const token = `1//0${randomUUID().replaceAll("-", "")}`;
    this.refreshTokens.set(token, { email, clientId, scopes: [...scopes], revoked: false });
    this.offlineConsents.add(`${clientId}\n${email}`);
    return token;
  }

  refreshGrant(token: string): RefreshGrant | undefined {
    const grant = this.refreshTokens.get(token);
    return grant && !grant.revoked ? grant : undefined;
  }

  issueAccessToken(grant: Omit<AccessGrant, "expiresAt">): string {
    const token = `ya29.a0${randomUUID().replaceAll("-", "")}`;
    this.accessTokens.set(token, { ...grant, expiresAt: this.now() + this.accessTtlSeconds * 1000 });
    return token;
  }

  /** A live access token, or undefined when unknown, expired or revoked. */
  accessGrant(token: string): AccessGrant | undefined {
    const grant = this.accessTokens.get(token);
    return grant && grant.expiresAt > this.now() ? grant : undefined;
  }

  /** Resolves an `Authorization` header; Google accepts the scheme in any case. */
  authenticate(authorization: string | undefined): TokenOwner | undefined {
    const match = /^bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    const grant = match?.[1] ? this.accessGrant(match[1]) : undefined;
    return grant ? { email: grant.email, scopes: grant.scopes } : undefined;
  }

  /**
   * Revokes a refresh token or an access token. Google documents that revoking an access token that has a
   * refresh token revokes the refresh token too, and vice versa
   * (https://developers.google.com/identity/protocols/oauth2/native-app#tokenrevoke).
   */
  revoke(token: string): boolean {
    const refresh = this.refreshGrant(token);
    if (refresh) {
      this.revokeRefresh(token, refresh);
      return true;
    }
    const access = this.accessGrant(token);
    if (!access) return false;
    this.accessTokens.delete(token);
    const parent = access.refreshToken ? this.refreshGrant(access.refreshToken) : undefined;
    if (access.refreshToken && parent) this.revokeRefresh(access.refreshToken, parent);
    return true;
  }

  expireAccessTokens(): void {
    const past = this.now() - 1;
    for (const grant of this.accessTokens.values()) grant.expiresAt = past;
  }

  private revokeRefresh(token: string, grant: RefreshGrant): void {
    grant.revoked = true;
    for (const [access, accessGrant] of this.accessTokens) {
      if (accessGrant.refreshToken === token) this.accessTokens.delete(access);
    }
    this.offlineConsents.delete(`${grant.clientId}\n${grant.email}`);
  }
}

/** base64url(SHA-256(verifier)), the S256 transform of RFC 7636 §4.2. */
export function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

/** A stable numeric Google account id ("sub") for an email. */
export function subjectOf(email: string): string {
  const digest = createHash("sha256").update(email.toLowerCase()).digest();
  let sub = "1";
  for (let i = 0; sub.length < 21; i++) sub += String((digest[i % digest.length] ?? 0) % 10);
  return sub;
}

/**
 * An OpenID Connect id_token. The signature is a fixed dummy: the sandbox publishes no keys, and clients only
 * read the payload of a token they got straight from the token endpoint over TLS (OIDC Core §3.1.3.7 point 6).
 */
export function makeIdToken(email: string, clientId: string, nowMs: number, ttlSeconds: number): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const iat = Math.floor(nowMs / 1000);
  const header = { alg: "RS256", kid: "sandbox-google-key", typ: "JWT" };
  const payload = {
    iss: "https://accounts.google.com",
    azp: clientId,
    aud: clientId,
    sub: subjectOf(email),
    email,
    email_verified: true,
    iat,
    exp: iat + ttlSeconds,
  };
  return `${encode(header)}.${encode(payload)}.${Buffer.from("sandbox-signature").toString("base64url")}`;
}
