import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import {
  type GoogleSandbox,
  SANDBOX_GOOGLE_USER,
  sandboxEnv,
  startGoogleSandbox,
} from "../../src/sandbox/index.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace } from "../../src/workspace.js";
import { mcpSession } from "../helpers/mcp.js";

describe("accounts changed by another process", () => {
  let sandbox: GoogleSandbox;
  beforeAll(async () => {
    sandbox = await startGoogleSandbox();
  });
  afterAll(async () => sandbox.close());

  it("are signalled to clients even in the first seconds after the server starts", async () => {
    const store = new MemoryCredentialStore();
    const env = { ...sandboxEnv({ google: sandbox }), MARTECH_STEPS_ACCOUNT_POLL_MS: "400" };
    const served = new Workspace({ env, store, state: new MemoryState() });
    // The CLI of another process, sharing the credential store.
    const cli = new Workspace({ env, store, state: new MemoryState() });
    const { client, close } = await mcpSession(served);
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed += 1;
    });
    try {
      await new Promise((r) => setTimeout(r, 50));
      // Before the poll's first tick.
      await cli.accounts.importAccount({
        label: "early",
        refreshToken: sandbox.issueRefreshToken(SANDBOX_GOOGLE_USER),
      });
      for (let i = 0; i < 60 && changed === 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(changed).toBe(1);
      const { tools } = await client.listTools();
      expect(
        JSON.stringify(tools.find((t) => t.name === "google_analytics_api_call")?.inputSchema),
      ).toContain("early");
    } finally {
      await close();
    }
  });
});
