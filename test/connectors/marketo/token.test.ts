import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { AuthenticationError, NetworkError } from "../../../src/errors.js";
import {
  CLIENT_ID,
  CLIENT_SECRET,
  connector,
  fail,
  fakeClock,
  identity,
  ORIGIN,
  ok,
  type Recorded,
  recordingFetch,
  rejection,
  TOKEN,
} from "../../helpers/marketo-connector.js";

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe("Marketo token handling", () => {
  it("sends exactly one identity request for 1,000 concurrent cold calls", async () => {
    identity();
    nock(ORIGIN)
      .get("/rest/v1/leads.json")
      .query(true)
      .times(1000)
      .reply(200, ok([{ id: 1 }]));
    const marketo = connector({ maxConcurrent: 50, callsPerWindow: 5000 });
    const calls = Array.from({ length: 1000 }, (_, i) =>
      marketo.request({
        method: "GET",
        path: "/rest/v1/leads.json",
        query: { filterType: "id", filterValues: i },
      }),
    );
    const pages = await Promise.all(calls);
    expect(pages).toHaveLength(1000);
    expect(marketo.tokenRequests()).toBe(1);
    expect(nock.isDone()).toBe(true);
  });

  it("sends credentials only in the POST form body and the token only as a Bearer header", async () => {
    const log: Recorded[] = [];
    nock(ORIGIN)
      .post(
        "/identity/oauth/token",
        (body) => body.client_id === CLIENT_ID && body.client_secret === CLIENT_SECRET,
      )
      .reply(200, { access_token: TOKEN, token_type: "bearer", expires_in: 3599 });
    nock(ORIGIN)
      .post("/rest/v1/leads.json")
      .query(true)
      .reply(200, ok([{ id: 7, status: "created" }]));
    const marketo = connector({}, { fetch: recordingFetch(log) });
    await marketo.request({
      method: "POST",
      path: "/rest/v1/leads.json",
      query: { x: 1 },
      body: { input: [] },
    });

    expect(log).toHaveLength(2);
    for (const entry of log) {
      expect(entry.url).not.toMatch(/access_token|client_secret|client_id/);
      expect(entry.url).not.toContain(CLIENT_SECRET);
      expect(entry.url).not.toContain(TOKEN);
    }
    expect(log[0]?.method).toBe("POST");
    expect(log[0]?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(log[0]?.body).toContain("grant_type=client_credentials");
    expect(log[1]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(log[1]?.body).not.toContain(TOKEN);
  });

  it("refreshes ahead of expiry once, without spinning on Marketo's same-token answer", async () => {
    const clock = fakeClock();
    nock(ORIGIN).post("/identity/oauth/token").reply(200, { access_token: "A:int", expires_in: 3600 });
    // Re-requested while valid, Marketo returns the same token with its remaining lifetime.
    nock(ORIGIN).post("/identity/oauth/token").reply(200, { access_token: "A:int", expires_in: 30 });
    nock(ORIGIN).post("/identity/oauth/token").reply(200, { access_token: "B:int", expires_in: 3600 });
    nock(ORIGIN).get("/rest/v1/lists.json").times(20).reply(200, ok());
    const marketo = connector({}, { now: clock.now, sleep: clock.sleep });
    const get = () => marketo.request({ method: "GET", path: "/rest/v1/lists.json" });

    await get();
    expect(marketo.tokenRequests()).toBe(1);
    clock.advance(3570_000); // 30 s before expiry: inside the 60 s refresh-ahead window
    await get();
    await new Promise((r) => setImmediate(r));
    expect(marketo.tokenRequests()).toBe(2);
    for (let i = 0; i < 10; i += 1) {
      clock.advance(2_000);
      await get();
    }
    expect(marketo.tokenRequests()).toBe(2);
    clock.advance(11_000); // past expiry
    await get();
    expect(marketo.tokenRequests()).toBe(3);
  });

  it.each(["601", "602"])("replays a call once with a new token after %s", async (code) => {
    identity("old:int");
    identity("new:int");
    const old = nock(ORIGIN, { reqheaders: { authorization: "Bearer old:int" } })
      .get("/rest/v1/lists.json")
      .reply(200, fail(code, code === "601" ? "Access token invalid" : "Access token expired"));
    const fresh = nock(ORIGIN, { reqheaders: { authorization: "Bearer new:int" } })
      .get("/rest/v1/lists.json")
      .reply(200, ok([{ id: 1 }]));
    const marketo = connector();
    const page = await marketo.request({ method: "GET", path: "/rest/v1/lists.json" });
    expect(page.result).toEqual([{ id: 1 }]);
    expect(old.isDone() && fresh.isDone()).toBe(true);
    expect(marketo.tokenRequests()).toBe(2);
  });

  it("replays a POST once after 602 (not executed) and fails with AuthenticationError on a second 601", async () => {
    identity("t1:int");
    identity("t2:int");
    let posts = 0;
    nock(ORIGIN)
      .post("/rest/v1/leads.json")
      .times(3)
      .reply(() => {
        posts += 1;
        return [200, fail(posts === 1 ? "602" : "601", "Access token invalid")];
      });
    const marketo = connector();
    const error = await rejection(
      marketo.request({
        method: "POST",
        path: "/rest/v1/leads.json",
        body: { input: [{ email: "a@x.com" }] },
      }),
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(posts).toBe(2);
    expect(error.message).not.toContain("t2:int");
  });

  it("does not cache an identity failure, and says where to check the credentials", async () => {
    nock(ORIGIN)
      .post("/identity/oauth/token")
      .reply(401, { error: "invalid_client", error_description: "Bad client credentials" });
    identity();
    nock(ORIGIN)
      .get("/rest/v1/lists.json")
      .reply(200, ok([{ id: 3 }]));
    const marketo = connector();
    const error = await rejection(marketo.request({ method: "GET", path: "/rest/v1/lists.json" }));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toMatch(/invalid_client/);
    expect(error.message).toMatch(/LaunchPoint/);
    expect(error.message).not.toContain(CLIENT_SECRET);
    const page = await marketo.request({ method: "GET", path: "/rest/v1/lists.json" });
    expect(page.result).toEqual([{ id: 3 }]);
    expect(marketo.tokenRequests()).toBe(2);
  });

  it("turns an unreachable identity endpoint into NetworkError without the secret", async () => {
    nock(ORIGIN)
      .post("/identity/oauth/token")
      .replyWithError({ code: "ECONNRESET", message: "socket hang up" });
    const error = await rejection(connector().request({ method: "GET", path: "/rest/v1/lists.json" }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).not.toContain(CLIENT_SECRET);
  });
});
