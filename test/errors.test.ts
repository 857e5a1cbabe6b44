import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { MemoryCredentialStore } from "../src/auth/credential-store.js";
import {
  type AnyMartechError,
  AuthenticationError,
  CancelledError,
  ConfigurationError,
  DeadlineExceededError,
  EndpointNotAllowedError,
  type ErrorCode,
  type ErrorConnection,
  isMartechError,
  NetworkError,
  NotFoundError,
  PermissionError,
  QuotaExceededError,
  RateLimitError,
  StoreLostError,
  UnknownOutcomeError,
  UpstreamError,
  ValidationError,
} from "../src/errors.js";
import { type GoogleSandbox, sandboxEnv, startGoogleSandbox } from "../src/sandbox/index.js";
import { MemoryState } from "../src/state/memory.js";
import type { ConnectionKind } from "../src/tools/types.js";
import { Workspace } from "../src/workspace.js";
import { mcpSession } from "./helpers/mcp.js";

// The JSON of an error is what MCP `_meta`, the console and the CLI show: `error` (the code), the
// message with its hint, `retryable`, then the details, in that order.
describe("error codes and their details", () => {
  it.each([
    [new ValidationError("metrics", "give 1 to 10."), "invalid_input", { field: "metrics" }],
    [new EndpointNotAllowedError("endpoint", "no host."), "invalid_input", { field: "endpoint" }],
    [
      new ConfigurationError("none", { details: { connection: "google" } }),
      "not_configured",
      { connection: "google" },
    ],
    [
      new AuthenticationError("no", { details: { oauthError: "invalid_client" } }),
      "authentication_failed",
      { oauthError: "invalid_client" },
    ],
    [
      new PermissionError("no", { details: { reason: "SERVICE_DISABLED" } }),
      "permission_denied",
      { reason: "SERVICE_DISABLED" },
    ],
    [new NotFoundError("gone"), "not_found", {}],
    [new RateLimitError("wait", 1500), "rate_limited", { retryAfterMs: 1500 }],
    [
      new QuotaExceededError("spent", new Date(Date.UTC(2026, 0, 2))),
      "quota_exhausted",
      { resetsAt: "2026-01-02T00:00:00.000Z" },
    ],
    [
      new UpstreamError("bad", { serviceCode: "1003", status: 200 }),
      "service_error",
      { serviceCode: "1003", status: 200 },
    ],
    [new UnknownOutcomeError("maybe"), "unknown_outcome", {}],
    [
      new DeadlineExceededError("late", { writeMayHaveHappened: true, deadlineMs: 10 }),
      "deadline_exceeded",
      { writeMayHaveHappened: true, deadlineMs: 10 },
    ],
    [new CancelledError("stop"), "cancelled", {}],
    [new NetworkError("down"), "network_error", {}],
    [new StoreLostError("gone"), "store_lost", {}],
  ])("%s has its code, and its JSON keeps its shape", (error, code, details) => {
    expect(isMartechError(error)).toBe(true);
    expect(error.code).toBe(code);
    expect(error.details).toEqual(details);
    expect(Object.keys(error.toJSON())).toEqual(["error", "message", "retryable", ...Object.keys(details)]);
    expect(error.toJSON()).toMatchObject({ error: code, message: error.message, ...details });
  });

  it("the code discriminates the details (checked by npm run typecheck)", () => {
    const caught = ((): unknown => new RateLimitError("wait", 20))();
    if (!isMartechError(caught)) throw new Error("not ours");
    if (caught.code === "rate_limited") expectTypeOf(caught.details.retryAfterMs).toEqualTypeOf<number>();
    if (caught.code === "not_configured") {
      expectTypeOf(caught.details.connection).toEqualTypeOf<ErrorConnection | undefined>();
    }
    expectTypeOf<AnyMartechError["code"]>().toEqualTypeOf<ErrorCode>();
    // @ts-expect-error: no error has this code, so the comparison cannot hold
    expect(caught.code === "not_configurd").toBe(false);
    // @ts-expect-error: not a connection errors know
    expect(new ConfigurationError("x", { details: { connection: "hubspot" } }).code).toBe("not_configured");
    // An error of a connection names one the steps know.
    expectTypeOf<ErrorConnection>().toEqualTypeOf<ConnectionKind>();
  });
});

describe("an MCP call whose connection is missing", () => {
  let sandbox: GoogleSandbox;
  beforeAll(async () => {
    sandbox = await startGoogleSandbox();
  });
  afterAll(async () => sandbox.close());

  it("offers the Google sign-in only for a Google account: missing Marketo credentials are just the error", async () => {
    // Google's OAuth client is configured (a sign-in could be offered); Marketo is not.
    const env = sandboxEnv({ google: sandbox });
    const workspace = new Workspace({ env, store: new MemoryCredentialStore(), state: new MemoryState() });
    const { client, close } = await mcpSession(workspace, { capabilities: { elicitation: { url: {} } } });
    let elicited = 0;
    client.setRequestHandler(ElicitRequestSchema, async () => {
      elicited += 1;
      return { action: "decline" };
    });
    try {
      const result = (await client.callTool({
        name: "marketo_api_call",
        arguments: { method: "GET", endpoint: "/rest/v1/leads.json" },
      })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(result._meta?.["martech-steps/error"]).toMatchObject({ error: "not_configured" });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(elicited).toBe(0);
    } finally {
      await close();
    }
  });
});
