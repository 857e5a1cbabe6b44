import { type CryptoKey, exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedFixture, register, startEmbeddedFixture } from "../helpers/embedded-as.js";

/**
 * The replay guard's table (ReplayDetection) under a flood of client assertions naming a far exp. Before, each
 * entry lived until the assertion's own exp (the attacker chose 10 years), so 2,000 of them filled the table
 * for good and every other client's assertion or DPoP proof got 503 until a restart. An assertion whose exp is
 * more than 5 minutes ahead is now refused before anything is kept (RFC 7523 section 3). The table's cap is
 * lowered to 5 and the token limit raised out of the way, so that the refusal alone is tested.
 */
interface KeyedClient {
  id: string;
  key: CryptoKey;
}

async function privateKeyJwtClient(base: string): Promise<KeyedClient> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), use: "sig", alg: "ES256" };
  const answer = await register(base, {
    token_endpoint_auth_method: "private_key_jwt",
    token_endpoint_auth_signing_alg: "ES256",
    jwks: { keys: [jwk] },
  });
  expect(answer.status, await answer.clone().text()).toBe(201);
  const { client_id } = (await answer.json()) as { client_id: string };
  return { id: client_id, key: privateKey };
}

describe("the replay guard of the embedded authorization server", () => {
  let as: EmbeddedFixture;
  beforeAll(async () => {
    as = await startEmbeddedFixture({
      tuning: {
        limits: { kinds: { ReplayDetection: { max: 5 } } },
        requestRules: { token: { burst: 1_000, everyMs: 1 } },
      },
    });
  });
  afterAll(async () => {
    await as.close();
  });

  const tokenRequest = async (client: KeyedClient, exp: number) => {
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: "ES256" })
      .setIssuer(client.id)
      .setSubject(client.id)
      .setAudience(`${as.base}/oauth`)
      .setJti(crypto.randomUUID())
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(client.key);
    const answer = await as.token({
      grant_type: "refresh_token",
      refresh_token: "not-a-token",
      client_id: client.id,
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: assertion,
    });
    return { status: answer.status, error: ((await answer.json()) as { error?: string }).error };
  };

  it("refuses assertions expiring 10 years ahead without keeping them, and other clients still authenticate", async () => {
    const attacker = await privateKeyJwtClient(as.base);
    const honest = await privateKeyJwtClient(as.base);
    const now = Math.floor(Date.now() / 1000);
    const flood = [];
    for (let i = 0; i < 10; i++) flood.push(await tokenRequest(attacker, now + 10 * 365 * 24 * 60 * 60));
    expect(flood).toEqual(Array(10).fill({ status: 401, error: "invalid_client" }));
    // The MCP SDK signs for 300 s: accepted (the refresh token is then refused, past client authentication).
    for (let i = 0; i < 5; i++)
      expect(await tokenRequest(honest, now + 300)).toEqual({ status: 400, error: "invalid_grant" });
  });
});
