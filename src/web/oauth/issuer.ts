/**
 * An authorization server's signing keys, found from its metadata: RFC 8414 first
 * (/.well-known/oauth-authorization-server, inserted before the issuer's path), then OpenID Connect
 * Discovery (/.well-known/openid-configuration, appended), the order the MCP authorization specification
 * gives clients (https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization,
 * "Authorization Server Metadata Discovery"). The keys are jose's remote JWK set: fetched on first use,
 * cached, refetched (at most every 30 s) when a token names a key it does not hold
 * (https://github.com/panva/jose/blob/main/docs/jwks/remote/functions/createRemoteJWKSet.md).
 */
import { createRemoteJWKSet, type JWTVerifyGetKey } from "jose";
import { ConfigurationError } from "../../errors.js";

const METADATA_TIMEOUT_MS = 10_000;

export interface IssuerKeys {
  issuer: string;
  keys: JWTVerifyGetKey;
}

/** The metadata URLs to try for an issuer, in order (RFC 8414 section 3.1; OpenID Connect Discovery 1.0 section 4). */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

async function readMetadata(url: string): Promise<Record<string, unknown> | undefined> {
  const response = await fetch(url, {
    headers: { accept: "application/json" },
    redirect: "error",
    signal: AbortSignal.timeout(METADATA_TIMEOUT_MS),
  });
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(`HTTP ${response.status} from ${url}`);
  const body: unknown = await response.json();
  return typeof body === "object" && body !== null ? (body as Record<string, unknown>) : undefined;
}

/**
 * The issuer's keys. Its metadata must name the configured issuer exactly (RFC 8414 section 3.3: else a
 * document of one server could speak for another) and a jwks_uri.
 */
export async function discoverIssuer(issuer: string): Promise<IssuerKeys> {
  for (const url of metadataUrls(issuer)) {
    let metadata: Record<string, unknown> | undefined;
    try {
      metadata = await readMetadata(url);
    } catch (error) {
      throw new ConfigurationError(`The authorization server's metadata could not be read at ${url}.`, {
        hint: "Check MARTECH_STEPS_OAUTH_ISSUER and that this server can reach it.",
        cause: error,
      });
    }
    if (!metadata) continue;
    if (metadata.issuer !== issuer)
      throw new ConfigurationError(
        `The metadata at ${url} names issuer "${String(metadata.issuer).slice(0, 100)}", not "${issuer}".`,
        {
          hint: "Set MARTECH_STEPS_OAUTH_ISSUER to the issuer exactly as its metadata names it (trailing slash included).",
        },
      );
    if (typeof metadata.jwks_uri !== "string")
      throw new ConfigurationError(`The metadata at ${url} has no jwks_uri.`, {
        hint: "This server validates JWT access tokens: use an authorization server that publishes its signing keys.",
      });
    return {
      issuer,
      keys: createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: METADATA_TIMEOUT_MS }),
    };
  }
  throw new ConfigurationError(`No authorization server metadata found for issuer ${issuer}.`, {
    hint: `Tried ${metadataUrls(issuer).join(" and ")}. Check MARTECH_STEPS_OAUTH_ISSUER.`,
  });
}

/**
 * An issuer's keys, discovered once and kept; a failed discovery is not kept, so the next request tries
 * again (an authorization server that was down at start is used once it answers).
 */
export function cachedIssuer(issuer: string): () => Promise<IssuerKeys> {
  let found: Promise<IssuerKeys> | undefined;
  return () => {
    found ??= discoverIssuer(issuer).catch((error: unknown) => {
      found = undefined;
      throw error;
    });
    return found;
  };
}
