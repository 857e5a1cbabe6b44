/** Shared helpers of the Google sandbox tests: start a sandbox, run the PKCE flow, call the APIs with fetch. */
import { createHash, randomBytes } from "node:crypto";
import nock from "nock";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import {
  type GoogleSandbox,
  type GoogleSandboxOptions,
  startGoogleSandbox,
} from "../../src/sandbox/google/index.js";
import { SCOPE_EDIT, SCOPE_READONLY } from "../../src/sandbox/google/types.js";

export const ANALYST = "analyst@sandbox.example";
export const VIEWER = "viewer@sandbox.example";
export const EDITOR = "editor@sandbox.example";
export const REDIRECT_URI = "http://127.0.0.1:49152/callback";
export const READ_EDIT = [SCOPE_READONLY, SCOPE_EDIT];

/** Never reach a real Google host: only the loopback sandbox may be contacted. */
export function loopbackOnly(): void {
  beforeAll(() => {
    nock.disableNetConnect();
    nock.enableNetConnect(/127\.0\.0\.1|localhost/);
  });
  afterAll(() => {
    nock.enableNetConnect();
  });
}

/** A fresh sandbox for each test of the enclosing suite, closed afterwards. */
export function withSandbox(options: GoogleSandboxOptions = {}): () => GoogleSandbox {
  let sandbox: GoogleSandbox | undefined;
  beforeEach(async () => {
    sandbox = await startGoogleSandbox(options);
  });
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });
  return () => {
    if (!sandbox) throw new Error("The sandbox is started in beforeEach: call this inside a test.");
    return sandbox;
  };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export function form(values: Record<string, string>): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(values).toString(),
  };
}

export interface JsonReply {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

export async function call(url: string, init: RequestInit = {}): Promise<JsonReply> {
  const res = await fetch(url, init);
  const text = await res.text();
  return {
    status: res.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    headers: res.headers,
  };
}

/** An access token for `email`, minted through the real refresh grant. */
export async function accessToken(
  sandbox: GoogleSandbox,
  email: string,
  scopes = READ_EDIT,
): Promise<string> {
  const refreshToken = sandbox.issueRefreshToken(email, scopes);
  const reply = await call(
    `${sandbox.oauthUrl}/token`,
    form({
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
    }),
  );
  if (reply.status !== 200) throw new Error(`token refresh failed: ${JSON.stringify(reply.body)}`);
  return String(reply.body.access_token);
}

/** Calls the Admin API with a bearer token and an optional JSON body. */
export async function admin(
  sandbox: GoogleSandbox,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<JsonReply> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  return call(`${sandbox.adminApiUrl}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
  });
}

export function rpcStatus(reply: JsonReply): string | undefined {
  const error = reply.body.error as { status?: string } | undefined;
  return error?.status;
}

export function rpcMessage(reply: JsonReply): string {
  const error = reply.body.error as { message?: string } | undefined;
  return error?.message ?? "";
}
