import {
  auth,
  type CallToolResult,
  InsufficientScopeError,
  Client as ModernClient,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { type ConsoleHandle, createConsole } from "../../src/console/index.js";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import { type GoogleSandbox, sandboxEnv, startGoogleSandbox } from "../../src/sandbox/index.js";
import { type MarketoSandbox, startMarketoSandbox } from "../../src/sandbox/marketo/index.js";
import { oauthSettings } from "../../src/settings.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace } from "../../src/workspace.js";
import { CANARY_SECRET } from "../helpers/fixtures.js";
import { RecordingOAuthProvider, ScriptedBrowser, signInThroughConsent } from "../helpers/oauth-browser.js";

/**
 * Issue 20's "done": a hosted MCP client that knows nothing but the server's URL connects through the
 * authorization flow (the MCP SDK's own OAuthClientProvider: dynamic registration, code + PKCE, through the
 * embedded authorization server and the console's consent page) and calls the five tools, each succeeding
 * on the sandboxes (Marketo and GA4). A client that asked only for `steps:read` reads with every read tool,
 * is refused each write tool with 403 insufficient_scope naming `steps:write` (the WWW-Authenticate the MCP
 * authorization specification asks for), and steps up through a second consent to write.
 */
describe("a hosted MCP client signs in through the embedded authorization server and calls the five tools", () => {
  let marketo: MarketoSandbox;
  let google: GoogleSandbox;
  let web: ConsoleHandle;
  let http: HttpServerHandle;
  let base: string;
  beforeAll(async () => {
    marketo = await startMarketoSandbox({ clientSecret: CANARY_SECRET });
    google = await startGoogleSandbox();
    const workspace = new Workspace({
      env: sandboxEnv({ marketo, google }),
      store: new MemoryCredentialStore(),
      state: new MemoryState(),
    });
    await workspace.accounts.importAccount({
      label: "analyst",
      refreshToken: google.issueRefreshToken("analyst@sandbox.example"),
    });
    web = createConsole({ workspace: () => workspace, loopback: true, env: {} });
    http = await startHttpServer({
      port: 0,
      workspace: () => workspace,
      routes: web.routes,
      oauth: { ...oauthSettings({ MARTECH_STEPS_OAUTH: "embedded" }), consent: web.consent },
    });
    base = new URL(http.url).origin;
  });
  afterAll(async () => {
    web.close();
    await http.close();
    await marketo.close();
    await google.close();
  });

  /** The person's part: the consent page (showing exactly `scopes`) approved; the transport redeems the code. */
  const consent = async (
    provider: RecordingOAuthProvider,
    transport: StreamableHTTPClientTransport,
    scopes?: string[],
  ) => {
    const login = `/${new URL(web.loginUrl(base)).search}`;
    const callback = await signInThroughConsent(provider, new ScriptedBrowser(base), login, scopes);
    await transport.finishAuth(callback.searchParams);
  };
  /** A transport whose 403 answers are kept, to read the challenge the SDK acted on. */
  const transportFor = (
    provider: RecordingOAuthProvider,
    refused: Response[],
    onInsufficientScope: "reauthorize" | "throw" = "reauthorize",
  ) =>
    new StreamableHTTPClientTransport(new URL(http.url), {
      authProvider: provider,
      onInsufficientScope,
      fetch: async (url, init) => {
        const answer = await fetch(url, init);
        if (answer.status === 403) refused.push(answer.clone());
        return answer;
      },
    });
  /** The scopes of the access token the client holds (a JWT: RFC 9068's `scope` claim). */
  const scopesOf = (provider: RecordingOAuthProvider) => {
    const token = provider.tokens()?.access_token ?? "";
    const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString());
    return String(claims.scope).split(" ").sort();
  };
  const ok = (result: CallToolResult) => {
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(JSON.stringify(result)).not.toContain(CANARY_SECRET);
    return result.structuredContent as Record<string, unknown>;
  };
  /** The first GA4 account with a property, and one event the property collected that is not a key event yet. */
  const gaTargets = async (client: ModernClient) => {
    const summaries = ok(
      (await client.callTool({
        name: "google_analytics_api_call",
        arguments: { method: "GET", endpoint: "v1beta/accountSummaries" },
      })) as CallToolResult,
    ).body as { accountSummaries: { account: string; propertySummaries?: { property: string }[] }[] };
    const withProperty = summaries.accountSummaries.find((s) => (s.propertySummaries ?? []).length > 0);
    const property = withProperty?.propertySummaries?.[0]?.property as string;
    const report = ok(
      (await client.callTool({
        name: "google_analytics_run_reports",
        arguments: {
          property,
          metrics: ["eventCount"],
          dimensions: ["eventName"],
          date_ranges: ["last30days"],
        },
      })) as CallToolResult,
    ) as { rows: { eventName: string }[] };
    expect(report.rows.length).toBeGreaterThan(0);
    return {
      account: withProperty?.account as string,
      property,
      events: report.rows.map((r) => r.eventName),
    };
  };

  it("with both scopes, calls all five tools, each succeeding on the sandboxes", async () => {
    const provider = new RecordingOAuthProvider();
    const first = transportFor(provider, []);
    await expect(new ModernClient({ name: "agent", version: "1" }).connect(first)).rejects.toThrow(
      UnauthorizedError,
    );
    await consent(provider, first);
    expect(scopesOf(provider)).toEqual(["steps:read", "steps:write"]);
    const refused: Response[] = [];
    const client = new ModernClient({ name: "agent", version: "1" });
    await client.connect(transportFor(provider, refused));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        "google_analytics_api_call",
        "google_analytics_create_key_events",
        "google_analytics_create_properties",
        "google_analytics_run_reports",
        "marketo_api_call",
      ]);
      const created = ok(
        (await client.callTool({
          name: "marketo_api_call",
          arguments: {
            method: "POST",
            endpoint: "/rest/v1/leads.json",
            body: { input: [{ email: "five@tools.example" }] },
          },
        })) as CallToolResult,
      ) as { result: { status: string }[] };
      expect(created.result[0]?.status).toBe("created");
      const { account, property, events } = await gaTargets(client);
      const keyEvent = ok(
        (await client.callTool({
          name: "google_analytics_create_key_events",
          arguments: { property, event_name: events[events.length - 1] },
        })) as CallToolResult,
      );
      expect(keyEvent).toHaveProperty("already_existed");
      ok(
        (await client.callTool({
          name: "google_analytics_create_properties",
          arguments: {
            analytics_account: account,
            display_name: "Made through OAuth",
            time_zone: "Europe/Paris",
            currency_code: "EUR",
          },
        })) as CallToolResult,
      );
      expect(refused).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("with steps:read only, reads with every read tool, is refused each write tool with 403 insufficient_scope, and steps up", async () => {
    const provider = new RecordingOAuthProvider();
    const first = transportFor(provider, []);
    // The client asks for the read scope alone (its own choice: the 401 names both).
    expect(await auth(provider, { serverUrl: http.url, scope: "steps:read" })).toBe("REDIRECT");
    await consent(provider, first, ["steps:read"]);
    expect(scopesOf(provider)).toEqual(["steps:read"]);

    const refused: Response[] = [];
    const reader = new ModernClient({ name: "agent", version: "1" });
    await reader.connect(transportFor(provider, refused, "throw"));
    try {
      ok(
        (await reader.callTool({
          name: "marketo_api_call",
          arguments: {
            method: "GET",
            endpoint: "/rest/v1/leads.json",
            query_parameters: { filterType: "email", filterValues: ["lead1@example.com"] },
          },
        })) as CallToolResult,
      );
      const { account, property, events } = await gaTargets(reader);
      expect(refused).toEqual([]);
      const writes = [
        { name: "google_analytics_create_key_events", arguments: { property, event_name: events[0] } },
        {
          name: "google_analytics_create_properties",
          arguments: {
            analytics_account: account,
            display_name: "x",
            time_zone: "Europe/Paris",
            currency_code: "EUR",
          },
        },
        {
          name: "marketo_api_call",
          arguments: { method: "POST", endpoint: "/rest/v1/leads.json", body: { input: [] } },
        },
        {
          name: "google_analytics_api_call",
          arguments: { method: "POST", endpoint: `v1beta/${property}:runReport`, body: {} },
        },
      ];
      for (const write of writes) {
        const error = await reader.callTool(write).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, write.name).toBeInstanceOf(InsufficientScopeError);
        expect((error as InsufficientScopeError).requiredScope).toBe("steps:write");
        expect(String((error as InsufficientScopeError).resourceMetadataUrl)).toBe(
          `${base}/.well-known/oauth-protected-resource/mcp`,
        );
      }
      // What the server sent (MCP authorization, "Scope challenge handling"; RFC 6750 section 3.1).
      expect(refused).toHaveLength(writes.length);
      for (const answer of refused) {
        expect(answer.headers.get("www-authenticate")).toBe(
          `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="steps:write", error="insufficient_scope", error_description="this request needs steps:write"`,
        );
      }
    } finally {
      await reader.close();
    }

    // The SDK's default answer to the 403: a new authorization asking for both scopes (SEP-2350's union).
    const stepping = transportFor(provider, []);
    const client = new ModernClient({ name: "agent", version: "1" });
    await client.connect(stepping);
    const keyEvent = {
      name: "google_analytics_create_key_events",
      arguments: { property: "", event_name: "" },
    };
    const { property, events } = await gaTargets(client);
    keyEvent.arguments = { property, event_name: events[0] as string };
    await expect(client.callTool(keyEvent)).rejects.toThrow(UnauthorizedError);
    expect(provider.authorizationUrl?.searchParams.get("scope")?.split(" ")).toEqual(
      expect.arrayContaining(["steps:read", "steps:write"]),
    );
    await consent(provider, stepping);
    expect(scopesOf(provider)).toEqual(["steps:read", "steps:write"]);
    await client.close();
    const writer = new ModernClient({ name: "agent", version: "1" });
    await writer.connect(transportFor(provider, []));
    ok((await writer.callTool(keyEvent)) as CallToolResult);
    await writer.close();
  });
});
