import { existsSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MarketoSandbox, startMarketoSandbox } from "../../src/sandbox/marketo/index.js";
import { childEnv } from "../helpers/child-env.js";
import { CANARY_SECRET } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/temp.js";

const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;

describe("stdio server (the built CLI)", () => {
  let sandbox: MarketoSandbox;
  beforeAll(async () => {
    if (!existsSync(BIN)) throw new Error("dist/ is missing: run `npm run build` (npm test does it).");
    sandbox = await startMarketoSandbox({ clientSecret: CANARY_SECRET });
  });
  afterAll(async () => sandbox.close());

  it("speaks MCP on stdout, logs only on stderr, and serves a real call", async () => {
    let stderr = "";
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "serve"],
      env: {
        ...childEnv(),
        MARTECH_STEPS_HOME: await tempDir("martech-stdio-"),
        MARKETO_CLIENT_ID: sandbox.clientId,
        MARKETO_CLIENT_SECRET: sandbox.clientSecret,
        MARKETO_REST_ENDPOINT: sandbox.restEndpoint,
        MARTECH_STEPS_LOG_LEVEL: "debug",
      },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk) => {
      stderr += String(chunk);
    });
    const client = new Client({ name: "stdio-test", version: "1" });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(5);
    const result = (await client.callTool({
      name: "marketo_api_call",
      arguments: {
        method: "GET",
        endpoint: "/rest/v1/leads.json",
        query_parameters: { filterType: "email", filterValues: "lead3@example.com" },
      },
    })) as CallToolResult;
    expect((result.structuredContent as { result: { email: string }[] }).result[0]?.email).toBe(
      "lead3@example.com",
    );
    await client.close();
    expect(stderr).not.toContain(CANARY_SECRET);
  });
});
