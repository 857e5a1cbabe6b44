import { describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../src/auth/credential-store.js";
import { MemoryState } from "../src/state/memory.js";
import { Workspace } from "../src/workspace.js";

// The connectors load when a workspace first builds one (stdio cold start lists tools without them);
// concurrent first calls must still share one connector, so that they share one token request.
describe("Workspace connectors, loaded on first use", () => {
  it("concurrent first calls get one Marketo connector", async () => {
    const env = {
      MARKETO_CLIENT_ID: "env-client",
      MARKETO_CLIENT_SECRET: "env-secret",
      MARKETO_REST_ENDPOINT: "https://123-ABC-456.mktorest.com/rest",
    };
    const workspace = new Workspace({ env, store: new MemoryCredentialStore(), state: new MemoryState() });
    const connectors = await Promise.all([
      workspace.connection("marketo"),
      workspace.connection("marketo"),
      workspace.connection("marketo"),
    ]);
    expect(new Set(connectors).size).toBe(1);
    expect(await workspace.connection("marketo")).toBe(connectors[0]);
  });
});
