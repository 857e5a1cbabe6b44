/**
 * A service account's private key and the assertions signed with it are secrets like a refresh token:
 * a token endpoint or an API that echoes them back never gets them into an error, a hint, a summary or
 * a result.
 */
import { generateKeyPairSync } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import nock from "nock";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GoogleAccounts } from "../../src/auth/google/accounts.js";
import { GoogleAnalyticsConnector } from "../../src/connectors/google/connector.js";
import { MemoryState } from "../../src/state/memory.js";
import { ENDPOINTS, MemoryCredentialStore, OAUTH } from "../helpers/google-auth.js";
import { tempDir } from "../helpers/temp.js";

const DATA = ENDPOINTS.dataApiUrl;

function keyFile() {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  return {
    pem,
    json: {
      type: "service_account",
      private_key_id: "0123456789abcdef0123456789abcdef01234567",
      private_key: pem,
      client_email: "canary@project.iam.gserviceaccount.com",
      client_id: "104000000000000000042",
      token_uri: `${OAUTH}/token`,
    },
  };
}

/** The key's base64 body, whole and line by line: what an echo could carry. */
function canaries(pem: string, assertion: string): string[] {
  const lines = pem.split("\n").filter((line) => line && !line.startsWith("-----"));
  return [assertion, lines.join(""), ...lines.filter((line) => line.length >= 40)];
}

function leaks(value: unknown, secrets: string[]): string[] {
  const text = JSON.stringify(value, (_key, v) =>
    v instanceof Error ? { ...v, message: v.message, hint: (v as { hint?: string }).hint } : v,
  );
  return secrets.filter((secret) => text.includes(secret) || text.includes(secret.slice(0, 40)));
}

beforeEach(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
  nock.enableNetConnect();
});

describe("service account canaries", () => {
  it("an endpoint echoing the assertion and the key gets neither into the import's error", async () => {
    const { pem, json } = keyFile();
    const file = join(await tempDir("sa-canary-"), "key.json");
    await writeFile(file, JSON.stringify(json), { mode: 0o600 });
    let assertion = "";
    nock(OAUTH)
      .post("/token", (body: Record<string, string>) => {
        assertion = body.assertion ?? "";
        return true;
      })
      .reply(400, () => ({
        error: "invalid_grant",
        error_description: `Invalid JWT Signature. assertion=${assertion} key=${pem.split("\n").slice(1, -2).join("")}`,
      }));
    const google = new GoogleAccounts({
      store: new MemoryCredentialStore(),
      workspace: "w",
      endpoints: ENDPOINTS,
      env: {},
    });
    const error = await google.importAccount({ label: "sa", file }).catch((e: unknown) => e);
    expect(assertion.split(".")).toHaveLength(3);
    expect((error as Error).message).toContain("Invalid JWT Signature.");
    expect(leaks(error, canaries(pem, assertion))).toEqual([]);
  });

  it("an API answer echoing the key and the access token gets neither into the result or the error", async () => {
    const { pem, json } = keyFile();
    const file = join(await tempDir("sa-canary-"), "key.json");
    await writeFile(file, JSON.stringify(json), { mode: 0o600 });
    nock(OAUTH)
      .post("/token")
      .times(2)
      .reply(200, { access_token: "ya29.canary-access-token-0001", expires_in: 3599 });
    const echo = pem.split("\n").slice(1, 3).join("");
    nock(DATA)
      .post("/v1beta/properties/1:runReport")
      .reply(403, {
        error: {
          code: 403,
          status: "PERMISSION_DENIED",
          message: `denied ya29.canary-access-token-0001 ${echo}`,
        },
      });
    const google = new GoogleAccounts({
      store: new MemoryCredentialStore(),
      workspace: "w",
      endpoints: ENDPOINTS,
      env: {},
    });
    const summary = await google.importAccount({ label: "sa", file });
    const ga = new GoogleAnalyticsConnector({
      tokens: await google.tokenSource("sa"),
      endpoints: ENDPOINTS,
      state: new MemoryState(),
    });
    const error = await ga
      .runReport("properties/1", { metrics: [{ name: "sessions" }] })
      .catch((e: unknown) => e);
    expect((error as { hint?: string }).hint).toContain(
      "Add the service account canary@project.iam.gserviceaccount.com to the Google Analytics property",
    );
    const secrets = [...canaries(pem, "ya29.canary-access-token-0001"), echo];
    expect(leaks([summary, await google.list(), error], secrets)).toEqual([]);
  });
});
