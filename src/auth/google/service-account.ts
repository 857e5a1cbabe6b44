/**
 * Google service accounts: the JSON key file, and access tokens by the JWT bearer grant (RFC 7523,
 * https://datatracker.ietf.org/doc/html/rfc7523) as Google documents it in "Using OAuth 2.0 for Server
 * to Server Applications" (https://developers.google.com/identity/protocols/oauth2/service-account):
 * a JWT with header {"alg":"RS256","typ":"JWT","kid":<private_key_id>} and claims iss (the service
 * account's email), scope (space-delimited), aud (the token endpoint,
 * https://oauth2.googleapis.com/token), iat and exp (at most one hour after iat), and sub (the user to
 * impersonate, with domain-wide delegation), signed with the key's RSA private key (RS256, by jose),
 * posted as grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<jwt>. The answer is an
 * access token (no refresh token: a new assertion is signed when it expires).
 */
import type { CryptoKey as JoseKey } from "jose";
import { AuthenticationError, ConfigurationError, ValidationError } from "../../errors.js";
import { Redactor } from "../../redact.js";
import { telemetry } from "../../telemetry.js";
import { TokenManager } from "../token-manager.js";
import { SCOPE_ANALYTICS_EDIT, SCOPE_ANALYTICS_READONLY } from "./config.js";
import { InvalidGrantError, jwtBearerGrant, type OAuthHttp, type TokenResponse } from "./oauth.js";
import type { GoogleServiceAccountKey } from "./stored.js";
import type { GoogleTokenSource } from "./token-source.js";

/** The scopes a service account asks for: the Data API and Admin API reads, and Admin API writes (REAL-API B6). */
export const SERVICE_ACCOUNT_SCOPES: readonly string[] = Object.freeze([
  SCOPE_ANALYTICS_READONLY,
  SCOPE_ANALYTICS_EDIT,
]);

/** "This value has a maximum of 1 hour after the issued time" (Google's service-account guide). */
const ASSERTION_LIFETIME_S = 3600;

const EMAIL = /^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}$/;
const KEY_ID = /^[A-Za-z0-9_-]{1,128}$/;
const PEM = /^-----BEGIN PRIVATE KEY-----\r?\n[A-Za-z0-9+/=\r\n]{100,8192}-----END PRIVATE KEY-----\r?\n?$/;

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

/**
 * Reads the fields used from a key file's JSON (type "service_account"). Errors name the field and
 * never quote a value: the file is a secret. `token_uri` must be the token endpoint in use: a key of
 * Google's is not signed for a sandbox, nor a sandbox's key for Google.
 */
export function parseServiceAccountKey(
  json: Record<string, unknown>,
  tokenUrl: string,
  subject: string | undefined,
): GoogleServiceAccountKey {
  const refuse = (why: string): never => {
    throw new ValidationError("file", `the service account key file ${why}.`, {
      hint: "Download a new JSON key (Cloud console > IAM & Admin > Service accounts > the account > Keys > Add key > JSON) and give its path.",
    });
  };
  const clientEmail = text(json.client_email);
  if (!clientEmail || !EMAIL.test(clientEmail)) refuse("has no valid client_email");
  const privateKeyId = text(json.private_key_id);
  if (!privateKeyId || !KEY_ID.test(privateKeyId)) refuse("has no valid private_key_id");
  const privateKey = text(json.private_key);
  if (!privateKey || !PEM.test(privateKey))
    refuse("has no PKCS #8 private_key (-----BEGIN PRIVATE KEY-----)");
  const tokenUri = text(json.token_uri);
  if (tokenUri !== undefined && tokenUri !== tokenUrl) {
    throw new ConfigurationError(
      `The service account key file was issued for the token endpoint ${/^https?:\/\/[\x21-\x7e]{1,200}$/.test(tokenUri) ? tokenUri : "(unreadable)"}, and the one in use is ${tokenUrl}.`,
      {
        hint: "Use a key file of the service you connect to: set GOOGLE_OAUTH_URL to its token endpoint's base (unset for Google's), or take a key issued there.",
      },
    );
  }
  if (subject !== undefined && !EMAIL.test(subject)) {
    throw new ValidationError("subject", "the user to impersonate is an email address.");
  }
  const clientId = text(json.client_id);
  return {
    clientEmail: clientEmail as string,
    privateKeyId: privateKeyId as string,
    privateKey: privateKey as string,
    ...(clientId && /^\d{1,40}$/.test(clientId) ? { clientId } : {}),
    ...(subject ? { subject } : {}),
  };
}

/** Registers the private key for redaction: whole, as one base64 run, and line by line. */
export function redactKey(redactor: Redactor, key: GoogleServiceAccountKey): Redactor {
  const body = key.privateKey.split(/\r?\n/).filter((line) => line !== "" && !line.startsWith("-----"));
  return redactor.add(key.privateKey, body.join(""), ...body);
}

/** Signs one assertion (RS256 with the key, `kid` naming it so Google picks the right public key). */
export async function signAssertion(
  key: GoogleServiceAccountKey,
  audience: string,
  scopes: readonly string[],
  nowMs: number,
): Promise<string> {
  // jose (46 modules) loads when a service account first signs, not on every start (the bench's cold start).
  const { importPKCS8, SignJWT } = await import("jose");
  let privateKey: JoseKey;
  try {
    privateKey = await importPKCS8(key.privateKey, "RS256");
  } catch {
    throw new ConfigurationError(
      `The private key of service account ${key.clientEmail} cannot be read as an RSA key.`,
      { hint: "Create a new JSON key for it in the Cloud console and import that file again." },
    );
  }
  const iat = Math.floor(nowMs / 1000);
  const jwt = new SignJWT({ scope: scopes.join(" ") })
    .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: key.privateKeyId })
    .setIssuer(key.clientEmail)
    .setAudience(audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ASSERTION_LIFETIME_S);
  if (key.subject) jwt.setSubject(key.subject);
  return jwt.sign(privateKey);
}

/**
 * The token endpoint's refusals of an assertion, each saying what to do. Google answers a deleted or
 * disabled key with `invalid_grant: Invalid JWT Signature.` (the same as a key of another account),
 * (a deleted key: https://github.com/crossplane-contrib/provider-jet-gcp/issues/56), a deleted account
 * with `invalid_grant`, and delegation that was not granted (or not for every scope asked) with
 * `unauthorized_client` (the service-account guide's domain-wide delegation error codes,
 * https://developers.google.com/identity/protocols/oauth2/service-account).
 */
export function assertionRefused(label: string, key: GoogleServiceAccountKey, error: unknown): Error {
  const reimport = `martech-steps accounts remove ${label}, then martech-steps accounts import --label ${label} --key-file <new key file>${key.subject ? ` --subject ${key.subject}` : ""}`;
  if (error instanceof InvalidGrantError) {
    return new AuthenticationError(
      `Google refused the key of service account ${key.clientEmail} (key id ${key.privateKeyId}): ${error.message}`,
      {
        hint: invalidGrantHint(error.message, key, label, reimport),
        details: { account: label, oauthError: "invalid_grant" },
        cause: error,
      },
    );
  }
  if (
    error instanceof ConfigurationError &&
    error.details.oauthError === "unauthorized_client" &&
    key.subject
  ) {
    return new ConfigurationError(
      `Google does not let service account ${key.clientEmail} act as ${key.subject} for the Google Analytics scopes (unauthorized_client).`,
      {
        hint: `A Google Workspace super administrator must grant domain-wide delegation: Admin console > Security > Access and data control > API controls > Manage domain-wide delegation > Add new, client ID ${key.clientId ?? "(the service account's unique ID)"}, scopes ${SERVICE_ACCOUNT_SCOPES.join(",")}. Or import the key without --subject to act as the service account itself.`,
        details: { account: label, oauthError: "unauthorized_client" },
        cause: error,
      },
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** What to do about an `invalid_grant`, from Google's description of it. */
function invalidGrantHint(
  said: string,
  key: GoogleServiceAccountKey,
  label: string,
  reimport: string,
): string {
  if (/short-lived|timeframe/i.test(said)) {
    return "This machine's clock is off by minutes (the assertion's iat and exp are taken from it): synchronise it (NTP), then retry.";
  }
  if (key.subject && /Invalid email or User ID/i.test(said)) {
    return `${key.subject} is not a user of the Google Workspace domain: check the email, then: martech-steps accounts remove ${label}, and import the key again with the right --subject.`;
  }
  return `The key was disabled or deleted, or the service account was. Create a new JSON key (Cloud console > IAM & Admin > Service accounts > ${key.clientEmail} > Keys), then: ${reimport}.`;
}

/** One token request with a fresh assertion; refusals are explained (see assertionRefused). */
export async function serviceAccountToken(
  http: OAuthHttp,
  label: string,
  key: GoogleServiceAccountKey,
  redactor: Redactor,
  nowMs: number,
): Promise<TokenResponse> {
  const assertion = await signAssertion(
    key,
    `${http.oauthUrl.replace(/\/+$/, "")}/token`,
    SERVICE_ACCOUNT_SCOPES,
    nowMs,
  );
  try {
    return await jwtBearerGrant(http, assertion, redactor);
  } catch (error) {
    throw assertionRefused(label, key, error);
  }
}

/** Access tokens of a service account: one shared request at a time, a new assertion for each. */
export function createServiceAccountTokenSource(options: {
  label: string;
  key: GoogleServiceAccountKey;
  http: OAuthHttp;
  now?: (() => number) | undefined;
  primed?: TokenResponse | undefined;
}): GoogleTokenSource {
  const { label, key, http } = options;
  const now = options.now ?? Date.now;
  let primed = options.primed;
  const redactor = redactKey(new Redactor(), key).add(primed?.accessToken);
  const manager = new TokenManager({
    now,
    fetchToken: async () => {
      if (primed) {
        const { accessToken, expiresIn } = primed;
        primed = undefined;
        return { accessToken, expiresIn };
      }
      const response = await serviceAccountToken(http, label, key, redactor, now());
      telemetry.tokenFetched("google_analytics");
      return { accessToken: response.accessToken, expiresIn: response.expiresIn };
    },
  });
  return {
    label,
    getToken: () => manager.getToken(),
    invalidate: (token) => manager.invalidate(token),
    tokenRequests: () => manager.requestCount,
    redactor,
    grantee: { email: key.subject ?? key.clientEmail, serviceAccount: key.subject === undefined },
  };
}

/** Forgetting a service account here does not stop its key: what to do instead. */
export function keyNotRevoked(key: GoogleServiceAccountKey): {
  revoked: false;
  reason: string;
  advice: string;
} {
  return {
    revoked: false,
    reason: "a service account key stays valid until it is deleted in Google Cloud",
    advice: `delete the key ${key.privateKeyId} if nothing else uses it (Cloud console > IAM & Admin > Service accounts > ${key.clientEmail} > Keys)`,
  };
}
