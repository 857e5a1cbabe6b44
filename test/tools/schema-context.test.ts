import nock from "nock";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { MemoryState } from "../../src/state/memory.js";
import { TOOL_STEPS } from "../../src/tools/registry.js";
import { runToolStep } from "../../src/tools/run.js";
import { Workspace } from "../../src/workspace.js";

const ORIGIN = "https://123-abc-456.mktorest.com";

/** A store that counts its reads. */
class CountingStore extends MemoryCredentialStore {
  reads = 0;
  override async read(workspace: string) {
    this.reads += 1;
    return super.read(workspace);
  }
}

afterEach(() => nock.cleanAll());

describe("the schema context (connected accounts) is read only for the steps whose input lists them", () => {
  it("a step whose input() takes no argument has the same schema whatever the accounts", () => {
    for (const step of TOOL_STEPS.filter((s) => s.input.length === 0)) {
      const none = z.toJSONSchema(step.input({ accounts: [] }));
      expect(z.toJSONSchema(step.input({ accounts: ["main", "other"] }))).toEqual(none);
    }
    // Every Google step lists the accounts, so it declares the context.
    for (const step of TOOL_STEPS.filter((s) => s.connection === "google")) expect(step.input.length).toBe(1);
  });

  it("a Marketo call with credentials in the environment never reads the credential store", async () => {
    nock.disableNetConnect();
    nock(ORIGIN)
      .post("/identity/oauth/token")
      .reply(200, { access_token: "tok-123456789", token_type: "bearer", expires_in: 3600 })
      .get("/rest/v1/lists.json")
      .reply(200, { requestId: "r#1", success: true, result: [] });
    const store = new CountingStore();
    const workspace = new Workspace({
      env: {
        MARKETO_CLIENT_ID: "client-id-1",
        MARKETO_CLIENT_SECRET: "client-secret-1",
        MARKETO_REST_ENDPOINT: ORIGIN,
      },
      store,
      state: new MemoryState(),
    });
    const context = await workspace.toolContext({});
    await runToolStep("marketo_api_call", { method: "GET", endpoint: "/rest/v1/lists.json" }, context);
    expect(store.reads).toBe(0);
    // A Google step reads the accounts (and fails for want of one, naming what to do).
    await expect(
      runToolStep(
        "google_analytics_api_call",
        { method: "GET", endpoint: "v1beta/accountSummaries" },
        context,
      ),
    ).rejects.toMatchObject({ code: "not_configured" });
    expect(store.reads).toBeGreaterThan(0);
    await workspace.close();
  });
});
