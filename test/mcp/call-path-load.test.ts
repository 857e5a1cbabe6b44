import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { log } from "../../src/log.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace } from "../../src/workspace.js";
import { mcpSession } from "../helpers/mcp.js";

// The call path (the runner, the steps) loads at the first tools/call. A step that throws at import
// (a native module missing on this platform, a broken build) must fail the call as any unexpected
// error does: a generic text for the client, the details in the server log.
vi.mock("../../src/tools/run.js", () => {
  throw new Error("step module failed at import: /home/someone/private/path");
});

afterEach(() => vi.restoreAllMocks());

describe("a call path that fails to load", () => {
  it("answers a generic isError result and logs the cause, every time", async () => {
    const logged = vi.spyOn(log, "error").mockImplementation(() => undefined);
    const workspace = new Workspace({
      env: {},
      store: new MemoryCredentialStore(),
      state: new MemoryState(),
    });
    const { client, close } = await mcpSession(workspace);
    try {
      const args = { method: "GET", endpoint: "/rest/v1/leads.json" };
      const results = (await Promise.all([
        client.callTool({ name: "marketo_api_call", arguments: args }),
        client.callTool({ name: "marketo_api_call", arguments: args }),
      ])) as CallToolResult[];
      for (const result of results) {
        expect(result.isError).toBe(true);
        expect(JSON.stringify(result)).not.toContain("/home/someone");
        expect(result.content).toEqual([
          {
            type: "text",
            text: "marketo_api_call failed with an internal error. The server log has the details.",
          },
        ]);
      }
      expect(logged).toHaveBeenCalledTimes(2);
      expect(logged.mock.calls[0]?.[0]).toMatchObject({ tool: "marketo_api_call", err: expect.any(Error) });
    } finally {
      await close();
    }
  });
});
