import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import Provider from "oidc-provider";

/**
 * An external authorization server for the tests: a real `oidc-provider` instance on loopback (standing
 * for Auth0, Okta or Keycloak) that mints JWT access tokens by the client credentials grant, for the
 * resource named in the request (RFC 8707 resource indicators), with the scope asked for and the extra
 * claims the test sets.
 */
export interface TestIssuer {
  issuer: string;
  /** An access token for `resource` with `scope` (space-separated). */
  token(resource: string, scope: string): Promise<string>;
  /** Extra claims put in every token minted from now on (the workspace claim). */
  claims: Record<string, unknown>;
  /** The signing key (a test signs a token with the same key under another issuer). */
  jwk: JWK;
  close(): Promise<void>;
}

export const CLIENT = { id: "agent", secret: "s".repeat(40) };
export const TOKEN_TTL_SECONDS = 600;

/** A private signing key as a JWK with its kid and alg, for oidc-provider's `jwks`. */
export async function signingJwk(kid = "test-key"): Promise<JWK> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: "ES256", use: "sig" };
}

export async function startIssuer(options: { jwk?: JWK } = {}): Promise<TestIssuer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const jwk = options.jwk ?? (await signingJwk());
  const claims: Record<string, unknown> = {};
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
        id_token_signed_response_alg: "ES256",
        scope: "steps:read steps:write",
      },
    ],
    jwks: { keys: [jwk] },
    scopes: ["steps:read", "steps:write"],
    ttl: { ClientCredentials: TOKEN_TTL_SECONDS },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        getResourceServerInfo: (_ctx, resource) => ({
          scope: "steps:read steps:write",
          audience: resource,
          accessTokenFormat: "jwt",
          jwt: { sign: { alg: "ES256" } },
        }),
      },
    },
    extraTokenClaims: () => ({ ...claims }),
  });
  server.on("request", provider.callback());
  return {
    issuer,
    claims,
    jwk,
    async token(resource, scope) {
      const response = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ grant_type: "client_credentials", scope, resource }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
