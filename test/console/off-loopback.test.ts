import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsoleFixture, rawRequest, startConsoleFixture } from "../helpers/console.js";

describe("the console off loopback", () => {
  let fixture: ConsoleFixture;
  const KEY = "team-key-0123456789abcdefghijkl";

  beforeAll(async () => {
    fixture = await startConsoleFixture({ loopback: false, apiKeys: new Map([[KEY, "default"]]) });
  });
  afterAll(async () => {
    await fixture.close();
  });

  it("prints no token and logs in with the workspace's API key only", async () => {
    const url = fixture.console.loginUrl(fixture.base);
    expect(new URL(url).search).toBe("");
    const host = new URL(fixture.base).host;
    const tokenLogin = await rawRequest(fixture.base, "GET", "/?token=anything", { headers: { host } });
    expect(tokenLogin.headers["set-cookie"]).toBeUndefined();
    const post = (apiKey: string, origin = fixture.base) =>
      rawRequest(fixture.base, "POST", "/console/api/login", {
        headers: { host, origin, "content-type": "application/json" },
        body: JSON.stringify({ apiKey }),
      });
    expect((await post("wrong-key-0123456789abcdefghij")).status).toBe(400);
    expect((await post(KEY, "http://evil.example")).status).toBe(403);
    const ok = await post(KEY);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text)).toEqual({ workspace: "default" });
    expect(String(ok.headers["set-cookie"])).toMatch(/HttpOnly; SameSite=Strict/);
  });
});
