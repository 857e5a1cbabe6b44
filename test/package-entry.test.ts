import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MarketoSandbox, startMarketoSandbox } from "../src/sandbox/marketo/index.js";

type Entry = typeof import("../src/index.js");

describe("the package entry (plugin use, from the built dist/)", () => {
  let entry: Entry;
  let sandbox: MarketoSandbox;
  beforeAll(async () => {
    entry = (await import(new URL("../dist/index.js", import.meta.url).href)) as Entry;
    sandbox = await startMarketoSandbox();
  });
  afterAll(async () => sandbox.close());

  it("exports the registry, search, runner, connectors, errors and the MCP server factory", async () => {
    expect(entry.TOOL_STEPS).toHaveLength(5);
    expect(entry.searchToolSteps("marketing automation")[0]?.id).toBe("marketo_api_call");
    for (const name of [
      "runToolStep",
      "createMcpServer",
      "MarketoConnector",
      "GoogleAnalyticsConnector",
      "ValidationError",
    ]) {
      expect(typeof (entry as Record<string, unknown>)[name]).toBe("function");
    }
    const pkg = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));
    expect(entry.buildManifest().version).toBe(pkg.version);
  });

  it("runs a step with a context the platform builds itself, and validates input first", async () => {
    const connector = new entry.MarketoConnector({
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
      restEndpoint: sandbox.restEndpoint,
    });
    const context = {
      connection: entry.connectionFrom({ marketo: async () => connector }),
      progress: () => undefined,
    };
    const result = await entry.runToolStep(
      "marketo_api_call",
      { method: "GET", endpoint: "/rest/v1/lead/7.json" },
      context,
    );
    expect((result.data as { result: { id: number }[] }).result[0]?.id).toBe(7);
    await expect(entry.runToolStep("marketo_api_call", { method: "GET" }, context)).rejects.toMatchObject({
      code: "invalid_input",
      field: "endpoint",
    });
  });
});
