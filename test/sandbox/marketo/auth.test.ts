import { afterEach, describe, expect, it } from "vitest";
import { type MarketoSandbox, startMarketoSandbox } from "../../../src/sandbox/marketo/index.js";
import { errorCode, type Json, requestToken } from "../../helpers/marketo-sandbox.js";

let sb: MarketoSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

function identity(s: MarketoSandbox, params: Record<string, string>, method: "GET" | "POST" = "POST") {
  const form = new URLSearchParams(params);
  return method === "GET"
    ? fetch(`${s.url}/identity/oauth/token?${form}`)
    : fetch(`${s.url}/identity/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form,
      });
}

async function api(s: MarketoSandbox, path: string, headers: Record<string, string> = {}): Promise<Json> {
  return (await (await fetch(`${s.url}${path}`, { headers })).json()) as Json;
}

describe("Marketo sandbox identity and tokens", () => {
  it("returns the same token with a counting-down expires_in while it is valid", async () => {
    let clock = Date.UTC(2026, 9, 1, 12);
    sb = await startMarketoSandbox({ leadCount: 10, now: () => clock, apiUserEmail: "api@acme.example" });
    const creds = {
      grant_type: "client_credentials",
      client_id: sb.clientId,
      client_secret: sb.clientSecret,
    };
    const first = await identity(sb, creds);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    const a = (await first.json()) as Record<string, unknown>;
    expect(a).toMatchObject({ token_type: "bearer", expires_in: 3600, scope: "api@acme.example" });
    expect(a.access_token).toMatch(/^[0-9a-f-]{36}:sbx$/);

    clock += 5_000;
    const b = (await (await identity(sb, creds, "GET")).json()) as Record<string, unknown>;
    expect(b.access_token).toBe(a.access_token);
    expect(b.expires_in).toBe(3595);

    clock += 3_600_000;
    const stale = await api(sb, "/rest/v1/leads/describe.json", {
      authorization: `Bearer ${String(a.access_token)}`,
    });
    expect(errorCode(stale)).toBe("602");
    const c = (await (await identity(sb, creds)).json()) as Record<string, unknown>;
    expect(c.access_token).not.toBe(a.access_token);
    expect(c.expires_in).toBe(3600);
    expect(sb.stats().identityRequests).toBe(3);
  });

  it("tells an unknown client id from a wrong secret, both HTTP 401 invalid_client, as Marketo does", async () => {
    sb = await startMarketoSandbox({ leadCount: 10 });
    for (const [params, description] of [
      [
        { grant_type: "client_credentials", client_id: sb.clientId, client_secret: "wrong" },
        "Bad client credentials",
      ],
      [
        { grant_type: "client_credentials", client_id: "nobody", client_secret: sb.clientSecret },
        "No client with requested id",
      ],
      [{ grant_type: "client_credentials", client_secret: sb.clientSecret }, "No client with requested id"],
    ] as const) {
      const res = await identity(sb, params);
      expect(res.status).toBe(401);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.json()).toEqual({ error: "invalid_client", error_description: description });
    }
    const badGrant = await identity(sb, {
      grant_type: "password",
      client_id: sb.clientId,
      client_secret: sb.clientSecret,
    });
    expect(badGrant.status).toBe(400);
  });

  it("refuses an access_token query parameter with 601 even when the token is valid", async () => {
    sb = await startMarketoSandbox({ leadCount: 10 });
    const token = await requestToken(sb);
    const body = await api(sb, `/rest/v1/leads/describe.json?access_token=${encodeURIComponent(token)}`);
    expect(body).toMatchObject({
      success: false,
      errors: [{ code: "601", message: "Access token invalid" }],
    });
    expect(body.requestId).toMatch(/^[0-9a-f]{4,5}#[0-9a-f]+$/);
    const ok = await api(sb, "/rest/v1/leads/describe.json", { authorization: `Bearer ${token}` });
    expect(ok.success).toBe(true);
  });

  it("answers a missing or unknown bearer token with 601", async () => {
    sb = await startMarketoSandbox({ leadCount: 10 });
    expect(errorCode(await api(sb, "/rest/v1/leads/describe.json"))).toBe("601");
    const unknown = await api(sb, "/rest/v1/leads/describe.json", {
      authorization: "Bearer 00000000-0000:sbx",
    });
    expect(errorCode(unknown)).toBe("601");
    expect(sb.stats().rejected["601"]).toBe(2);
  });

  it("answers 602 for every token after expireTokens(), and issues a fresh one afterwards", async () => {
    sb = await startMarketoSandbox({ leadCount: 10 });
    const token = await requestToken(sb);
    sb.expireTokens();
    const res = await fetch(`${sb.url}/rest/v1/leads/describe.json`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      success: false,
      errors: [{ code: "602", message: "Access token expired" }],
    });
    const fresh = await requestToken(sb);
    expect(fresh).not.toBe(token);
    expect(
      (await api(sb, "/rest/v1/leads/describe.json", { authorization: `Bearer ${fresh}` })).success,
    ).toBe(true);
    expect(sb.stats().rejected["602"]).toBe(1);
  });
});
