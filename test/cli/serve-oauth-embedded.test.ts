import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Started, startCli } from "../helpers/cli.js";
import { RecordingOAuthProvider, ScriptedBrowser, signInThroughConsent } from "../helpers/oauth-browser.js";

/**
 * `serve --http` with MARTECH_STEPS_OAUTH=embedded, as a person runs it (issue 20, item 1): it prints the
 * console's login link beside the MCP URL, and an MCP client that knows only that URL signs in with the
 * SDK's own OAuth flow (dynamic registration, code + PKCE) through the console's consent page and calls a step.
 */
describe("serve --http with the embedded authorization server", () => {
  let server: Started;

  beforeAll(async () => {
    server = await startCli(
      ["serve", "--http", "--sandbox", "--port", "0"],
      { MARTECH_STEPS_OAUTH: "embedded" },
      /login link works once\): \S+\n/,
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("prints the console's login link, and the SDK client signs in through it and calls a step", async () => {
    const mcpUrl = /MCP server: (\S+)/.exec(server.banner)?.[1] as string;
    const login = new URL(/login link works once\): (\S+)/.exec(server.banner)?.[1] as string);
    expect(login.origin).toBe(new URL(mcpUrl).origin);
    const provider = new RecordingOAuthProvider();
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
    await expect(new Client({ name: "agent", version: "1" }).connect(transport)).rejects.toThrow(
      UnauthorizedError,
    );
    const callback = await signInThroughConsent(
      provider,
      new ScriptedBrowser(login.origin),
      `/${login.search}`,
    );
    await transport.finishAuth(callback.searchParams);
    const client = new Client({ name: "agent", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
    try {
      const result = await client.callTool({
        name: "marketo_api_call",
        arguments: { method: "GET", endpoint: "/rest/v1/leads/describe.json" },
      });
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
    } finally {
      await client.close();
    }
    expect(server.banner).not.toMatch(/oidc-provider/);
  });
});
