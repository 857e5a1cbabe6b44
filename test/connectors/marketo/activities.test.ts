import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ValidationError } from "../../../src/errors.js";
import {
  connector,
  fakeClock,
  identity,
  ORIGIN,
  ok,
  type Recorded,
  recordingFetch,
  rejection,
} from "../../helpers/marketo-connector.js";

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

function pagingToken(expectedSince: string, token = "GIYDAOBNGEYS2MBWKQYDAORQGA5DAMBO"): nock.Scope {
  return nock(ORIGIN)
    .get("/rest/v1/activities/pagingtoken.json")
    .query({ sinceDatetime: expectedSince })
    .reply(200, { requestId: "1607c#14884f3e74e", success: true, nextPageToken: token });
}

describe("Marketo activities", () => {
  it("gets a paging token for sinceDatetime first, then reads with the token instead of the date", async () => {
    identity();
    const since = "2024-10-06T13:22:17-08:00";
    const seed = pagingToken(since);
    const read = nock(ORIGIN)
      .get("/rest/v1/activities.json")
      .query({ nextPageToken: "GIYDAOBNGEYS2MBWKQYDAORQGA5DAMBO", activityTypeIds: "1,12" })
      .reply(
        200,
        ok([{ marketoGUID: "1", activityTypeId: 1 }], { nextPageToken: "NEXT", moreResult: false }),
      );
    const log: Recorded[] = [];
    const result = await connector({}, { fetch: recordingFetch(log) }).call({
      method: "GET",
      path: "/rest/v1/activities.json",
      query: { sinceDatetime: since, activityTypeIds: [1, 12] },
      paginate: true,
    });
    expect(seed.isDone() && read.isDone()).toBe(true);
    expect(result.result).toHaveLength(1);
    expect(result.callsUsed).toBe(2);
    // "+" / "-" in the offset survive: the date is percent-encoded, never sent raw.
    expect(log[1]?.url).toContain("sinceDatetime=2024-10-06T13%3A22%3A17-08%3A00");
    expect(log[2]?.url).not.toContain("sinceDatetime");
  });

  it.each(["/rest/v1/activities/leadchanges.json", "/rest/v1/activities/deletedleads.json"])(
    "seeds %s the same way",
    async (path) => {
      identity();
      pagingToken("2025-01-01T00:00:00Z", "TOK");
      const read = nock(ORIGIN)
        .get(path)
        .query((q) => q.nextPageToken === "TOK" && q.sinceDatetime === undefined)
        .reply(200, ok([], { nextPageToken: "TOK2", moreResult: false }));
      await connector().request({
        method: "GET",
        path,
        query: { sinceDatetime: "2025-01-01T00:00:00Z", fields: "email" },
      });
      expect(read.isDone()).toBe(true);
    },
  );

  it("asks for a start instead of sending an activity read that has neither sinceDatetime nor a token", async () => {
    const log: Recorded[] = [];
    const error = await rejection(
      connector({}, { fetch: recordingFetch(log) }).request({
        method: "GET",
        path: "/rest/v1/activities.json",
        query: { activityTypeIds: 1 },
      }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toMatch(/sinceDatetime/);
    expect(log).toHaveLength(0);
  });

  it("translates the seed-only emailbounced.json to activities 8,27 since 30 days ago, with a warning", async () => {
    const clock = fakeClock(Date.UTC(2025, 2, 31, 12, 0, 0));
    identity();
    pagingToken("2025-03-01T12:00:00.000Z", "BNC");
    const read = nock(ORIGIN)
      .get("/rest/v1/activities.json")
      .query({ nextPageToken: "BNC", activityTypeIds: "8,27" })
      .reply(
        200,
        ok([{ marketoGUID: "9", activityTypeId: 8 }], { nextPageToken: "BNC2", moreResult: false }),
      );
    const result = await connector({}, { now: clock.now, sleep: clock.sleep }).call({
      method: "GET",
      path: "/rest/v1/activities/emailbounced.json",
      paginate: true,
    });
    expect(read.isDone()).toBe(true);
    expect(result.translatedFrom).toBe("/rest/v1/activities/emailbounced.json");
    expect(result.warnings[0]).toMatch(
      /emailbounced\.json does not exist on Marketo; called \/rest\/v1\/activities\.json/,
    );
    expect(result.result).toHaveLength(1);
  });

  it("translates emailopened.json to activity type 10, keeping a given sinceDatetime", async () => {
    identity();
    pagingToken("2025-02-01T00:00:00Z", "OPN");
    const read = nock(ORIGIN)
      .get("/rest/v1/activities.json")
      .query({ nextPageToken: "OPN", activityTypeIds: "10" })
      .reply(200, ok([], { nextPageToken: "OPN2", moreResult: false }));
    const result = await connector().call({
      method: "GET",
      path: "/rest/v1/activities/emailopened.json",
      query: { sinceDatetime: "2025-02-01T00:00:00Z" },
    });
    expect(read.isDone()).toBe(true);
    expect(result.translatedFrom).toBe("/rest/v1/activities/emailopened.json");
    expect(result.warnings.join(" ")).toMatch(/activityTypeIds=10/);
  });

  it("translates with a given nextPageToken without seeding", async () => {
    identity();
    const read = nock(ORIGIN)
      .get("/rest/v1/activities.json")
      .query({ nextPageToken: "RESUME", activityTypeIds: "10" })
      .reply(200, ok([], { nextPageToken: "R2", moreResult: false }));
    const page = await connector().request({
      method: "GET",
      path: "/rest/v1/activities/emailopened.json",
      query: { nextPageToken: "RESUME" },
    });
    expect(read.isDone()).toBe(true);
    expect(page.warnings[0]).toMatch(/does not exist on Marketo/);
  });

  it.each([
    ["/rest/asset/v1/program/1035/stats.json", /activityTypeIds 6,7,8,9,10,11/],
    ["/rest/asset/v1/landingPage/12/stats.json", /activityTypeIds 1 \(Visit Webpage\)/],
  ])("refuses the nonexistent %s before any request, saying what to call instead", async (path, instead) => {
    const log: Recorded[] = [];
    const error = await rejection(
      connector({}, { fetch: recordingFetch(log) }).call({ method: "GET", path }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toMatch(/does not exist on Marketo/);
    expect(error.message).toMatch(instead);
    expect(error.message).toMatch(/\/rest\/v1\/stats\/usage\.json/);
    expect(log).toHaveLength(0);
  });
});
