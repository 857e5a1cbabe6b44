import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshHome, type Started, startCli } from "../helpers/cli.js";
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

  it("start mounts it too, beside its console", async () => {
    const started = await startCli(["start", "--port", "0"], {
      MARTECH_STEPS_HOME: await freshHome("martech-oauth-"),
      MARTECH_STEPS_OAUTH: "embedded",
    });
    try {
      const mcpUrl = /MCP server \(Streamable HTTP\): (\S+)/.exec(started.banner)?.[1] as string;
      const origin = new URL(mcpUrl).origin;
      const challenge = await fetch(mcpUrl, { method: "POST", body: "{}" });
      expect(challenge.status).toBe(401);
      const resource = await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json();
      expect(resource).toMatchObject({ resource: mcpUrl, authorization_servers: [`${origin}/oauth`] });
      const metadata = await (await fetch(`${origin}/.well-known/oauth-authorization-server/oauth`)).json();
      expect(metadata).toMatchObject({
        issuer: `${origin}/oauth`,
        code_challenge_methods_supported: ["S256"],
        registration_endpoint: `${origin}/oauth/reg`,
      });
      expect(started.banner).not.toMatch(/oidc-provider/);
    } finally {
      await started.stop();
    }
  });
});
