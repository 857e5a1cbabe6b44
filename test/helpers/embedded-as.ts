import {
  Client as ModernClient,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { expect } from "vitest";
import { type ConsoleHandle, createConsole } from "../../src/console/index.js";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import { oauthSettings } from "../../src/settings.js";
import type { EmbeddedTuning } from "../../src/web/oauth/embedded.js";
import { type MarketoFixture, marketoFixture } from "./fixtures.js";
import { RecordingOAuthProvider, ScriptedBrowser, signInThroughConsent } from "./oauth-browser.js";

/** The authorization server metadata's endpoints (RFC 8414). */
export interface AsMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
  revocation_endpoint: string;
  jwks_uri: string;
  client_id_metadata_document_supported?: boolean;
}

/** A client signed in through the consent page: its registration and tokens. */
export interface SignedIn {
  provider: RecordingOAuthProvider;
  clientId: string;
  accessToken: string;
  refreshToken: string;
  /** The redirect that delivered the code (already redeemed). */
  callback: URL;
}

export interface EmbeddedFixture {
  http: HttpServerHandle;
  web: ConsoleHandle;
  marketo: MarketoFixture;
  /** The server's origin, e.g. http://127.0.0.1:41234 */
  base: string;
  metadata(): Promise<AsMetadata>;
  /** The MCP SDK's client registers (RFC 7591) and a scripted person approves it on the consent page. */
  signIn(provider?: RecordingOAuthProvider): Promise<SignedIn>;
  /** A form POST to the token endpoint (a refresh, a code redemption). */
  token(params: Record<string, string>): Promise<Response>;
  /** An MCP initialize with `Authorization: Bearer <token>`: its status and WWW-Authenticate. */
  mcp(token: string): Promise<{ status: number; challenge: string | null }>;
  close(): Promise<void>;
}

/** The MCP server on a Marketo sandbox with MARTECH_STEPS_OAUTH=embedded and the console's consent page. */
export async function startEmbeddedFixture(
  options: { tuning?: EmbeddedTuning; now?: () => Date } = {},
): Promise<EmbeddedFixture> {
  const marketo = await marketoFixture();
  const web = createConsole({ workspace: () => marketo.workspace, loopback: true, env: {} });
  const http = await startHttpServer({
    port: 0,
    workspace: () => marketo.workspace,
    routes: web.routes,
    oauth: {
      ...oauthSettings({ MARTECH_STEPS_OAUTH: "embedded" }),
      consent: web.consent,
      ...(options.tuning ? { embedded: options.tuning } : {}),
      ...(options.now ? { now: options.now } : {}),
    },
  });
  const base = new URL(http.url).origin;
  const metadata = async () =>
    (await (await fetch(`${base}/.well-known/oauth-authorization-server/oauth`)).json()) as AsMetadata;
  const token = async (params: Record<string, string>) =>
    fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(params),
    });
  return {
    http,
    web,
    marketo,
    base,
    metadata,
    token,
    async mcp(bearer) {
      const answer = await fetch(http.url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${bearer}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-11-25",
            capabilities: {},
            clientInfo: { name: "a", version: "1" },
          },
        }),
      });
      await answer.body?.cancel();
      return { status: answer.status, challenge: answer.headers.get("www-authenticate") };
    },
    async signIn(provider = new RecordingOAuthProvider()) {
      const transport = new StreamableHTTPClientTransport(new URL(http.url), { authProvider: provider });
      await expect(new ModernClient({ name: "agent", version: "1" }).connect(transport)).rejects.toThrow(
        UnauthorizedError,
      );
      const login = `/${new URL(web.loginUrl(base)).search}`;
      const callback = await signInThroughConsent(provider, new ScriptedBrowser(base), login);
      await transport.finishAuth(callback.searchParams);
      return {
        provider,
        clientId: String(provider.info?.client_id),
        accessToken: String(provider.saved?.access_token),
        refreshToken: String(provider.saved?.refresh_token),
        callback,
      };
    },
    async close() {
      web.close();
      await http.close();
      await marketo.close();
    },
  };
}

/** A registration (RFC 7591) as an MCP client sends it; `extra` adds to or replaces its metadata. */
export function register(base: string, extra: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${base}/oauth/reg`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "flood",
      redirect_uris: ["http://127.0.0.1:9/cb"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...extra,
    }),
  });
}

/** An authorization request (a new sign-in: one interaction kept) for `clientId`, not followed. */
export function authorize(
  base: string,
  clientId: string,
  extra: Record<string, string> = {},
): Promise<Response> {
  const query = new URLSearchParams({
    client_id: clientId,
    response_type: "code",
    redirect_uri: "http://127.0.0.1:9/cb",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    scope: "steps:read",
    ...extra,
  });
  return fetch(`${base}/oauth/auth?${query}`, { redirect: "manual" });
}
