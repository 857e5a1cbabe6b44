import nock from "nock";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as guard from "../../src/connectors/endpoint-guard.js";
import { connectionFrom } from "../../src/tools/connection-from.js";
import { runToolStep } from "../../src/tools/run.js";
import type { ToolContext } from "../../src/tools/types.js";
import { setup } from "../helpers/google-connector.js";
import { connector, identity, ORIGIN, ok } from "../helpers/marketo-connector.js";

// Every module that imports the guard gets this spy: it counts the checks a call makes.
vi.mock("../../src/connectors/endpoint-guard.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/connectors/endpoint-guard.js")>();
  return { ...real, checkPath: vi.fn(real.checkPath) };
});

const checks = vi.mocked(guard.checkPath);
const LIST = "/rest/v1/lists/1/leads.json";

/** Three pages of a list's members: page 1 and 2 say more remain. */
function threePages(): void {
  nock(ORIGIN)
    .get(LIST)
    .query({})
    .reply(200, ok([{ id: 1 }], { nextPageToken: "P2", moreResult: true }));
  nock(ORIGIN)
    .get(LIST)
    .query({ nextPageToken: "P2" })
    .reply(200, ok([{ id: 2 }], { nextPageToken: "P3", moreResult: true }));
  nock(ORIGIN)
    .get(LIST)
    .query({ nextPageToken: "P3" })
    .reply(200, ok([{ id: 3 }]));
}

describe("the endpoint guard runs once per call, and the checked path is what is sent", () => {
  beforeEach(() => {
    nock.disableNetConnect();
    checks.mockClear();
  });
  afterEach(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });

  it("a Marketo API Call step: the step's check is the only one, over three pages", async () => {
    identity();
    threePages();
    const marketo = connector();
    const context: ToolContext = {
      connection: connectionFrom({ marketo: async () => marketo }),
      progress: () => undefined,
    };
    const { data } = await runToolStep(
      "marketo_api_call",
      { method: "GET", endpoint: LIST, paginate: true },
      context,
    );
    expect((data as { result: unknown[] }).result).toHaveLength(3);
    expect(checks).toHaveBeenCalledTimes(1);
    expect(nock.isDone()).toBe(true);
  });

  it("a library call of the Marketo connector with a raw path: checked once at the start", async () => {
    identity();
    threePages();
    const result = await connector().call({ method: "GET", path: LIST, paginate: true });
    expect(result.pages).toBe(3);
    expect(checks).toHaveBeenCalledTimes(1);
  });

  it("a seed-only activity path translated and seeded with a paging token: still one check", async () => {
    identity();
    nock(ORIGIN)
      .get("/rest/v1/activities/pagingtoken.json")
      .query(true)
      .reply(200, ok([], { nextPageToken: "T1" }));
    nock(ORIGIN)
      .get("/rest/v1/activities.json")
      .query(true)
      .reply(200, ok([{ id: 1 }]));
    const result = await connector().call({
      method: "GET",
      path: "/rest/v1/activities/emailopened.json",
      query: { sinceDatetime: "2025-01-01T00:00:00Z" },
    });
    expect(result.translatedFrom).toBe("/rest/v1/activities/emailopened.json");
    expect(checks).toHaveBeenCalledTimes(1);
  });

  it("a Google call: one check, the API chosen from the same checked path", async () => {
    nock("https://analyticsadmin.googleapis.com").get("/v1beta/accounts").reply(200, { accounts: [] });
    const { connector: google } = setup();
    const { api } = await google.call({ method: "GET", path: "v1beta/accounts" });
    expect(api).toBe("admin");
    expect(checks).toHaveBeenCalledTimes(1);
  });
});
