import { existsSync } from "node:fs";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttp,
} from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import { childEnv } from "../helpers/child-env.js";
import { CANARY_SECRET } from "../helpers/fixtures.js";
import {
  type CallResult,
  type CallTool,
  callAllFive,
  expectRegistryTools,
  type Sandboxes,
  sandboxWorkspace,
  startSandboxes,
} from "../helpers/mcp-five-tools.js";
import { tempDir } from "../helpers/temp.js";

const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const PIN_2026 = { versionNegotiation: { mode: { pin: "2026-07-28" as const } } };

function modernCall(client: ModernClient): CallTool {
  return (name, args) => client.callTool({ name, arguments: args });
}
function legacyCall(client: Client): CallTool {
  // v1 types the result as a union with the pre-2025 `toolResult` shape; the server never sends it.
  return (name, args) => client.callTool({ name, arguments: args }) as Promise<CallResult>;
}

describe("both protocol revisions over Streamable HTTP", () => {
  let sandboxes: Sandboxes;
  let http: HttpServerHandle;

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    const workspace = await sandboxWorkspace(sandboxes);
    http = await startHttpServer({ workspace: () => workspace });
  });
  afterAll(async () => {
    await http.close();
    await sandboxes.close();
  });

  it("an SDK v2 client on 2026-07-28 lists and calls all five tools, with no session", async () => {
    const transport = new ModernHttp(new URL(http.url));
    const client = new ModernClient({ name: "v2", version: "1" }, PIN_2026);
    await client.connect(transport);
    expect(client.getProtocolEra()).toBe("modern");
    expect(transport.sessionId).toBeUndefined();
    expectRegistryTools((await client.listTools()).tools);
    await callAllFive(modernCall(client));
    await client.close();
  });

  it("an SDK v1 client on 2025-11-25 lists and calls all five tools in a session", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(http.url));
    const client = new Client({ name: "v1", version: "1" });
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerVersion()?.name).toBe("martech-steps");
    expectRegistryTools((await client.listTools()).tools);
    await callAllFive(legacyCall(client));
    await client.close();
  });
});

describe("both protocol revisions over stdio (the built CLI)", () => {
  let sandboxes: Sandboxes;
  let env: Record<string, string>;
  let stderr = "";

  beforeAll(async () => {
    if (!existsSync(BIN)) throw new Error("dist/ is missing: run `npm run build` (npm test does it).");
    sandboxes = await startSandboxes();
    env = {
      ...childEnv(),
      MARTECH_STEPS_HOME: await tempDir("martech-eras-"),
      MARTECH_STEPS_LOG_LEVEL: "debug",
      ...sandboxes.env,
    };
    // The account is connected in the store the CLI reads, as `accounts import` would.
    const workspace = await sandboxWorkspace(sandboxes, { env, store: undefined });
    await workspace.close();
  });
  afterAll(async () => {
    await sandboxes.close();
    expect(stderr).not.toContain(CANARY_SECRET);
  });
  /** The CLI's `serve`, its stderr collected (searched for the canary at the end). */
  const serveOptions = () => ({
    command: process.execPath,
    args: [BIN, "serve"],
    env,
    stderr: "pipe" as const,
  });
  const collect = (chunk: unknown) => {
    stderr += String(chunk);
  };

  it("an SDK v2 client on 2026-07-28 lists and calls all five tools", async () => {
    const transport = new ModernStdio(serveOptions());
    transport.stderr?.on("data", collect);
    const client = new ModernClient({ name: "v2-stdio", version: "1" }, PIN_2026);
    await client.connect(transport);
    expect(client.getProtocolEra()).toBe("modern");
    expectRegistryTools((await client.listTools()).tools);
    await callAllFive(modernCall(client));
    await client.close();
  });

  it("an SDK v1 client on 2025-11-25 lists and calls all five tools", async () => {
    const transport = new StdioClientTransport(serveOptions());
    transport.stderr?.on("data", collect);
    const client = new Client({ name: "v1-stdio", version: "1" });
    await client.connect(transport);
    expectRegistryTools((await client.listTools()).tools);
    await callAllFive(legacyCall(client));
    await client.close();
  });
});
