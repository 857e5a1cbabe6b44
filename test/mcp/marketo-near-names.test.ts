/**
 * Issue 27 §4 (trial T12, T20): an exact-name lookup that finds nothing says so and names the nearest
 * existing names, read with one more call, instead of a bare 0. Through MCP on the sandbox, each suggestion
 * followed: looked up by the name suggested, the record is found.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

let fixture: MarketoFixture;
let session: McpSession;

async function call(args: Record<string, unknown>) {
  const result = (await session.client.callTool({
    name: "marketo_api_call",
    arguments: args,
  })) as CallToolResult;
  const first = result.content[0];
  const text = first?.type === "text" ? first.text : "";
  expect(result.isError, text).toBeFalsy();
  return {
    text,
    data: result.structuredContent as { result: Record<string, unknown>[]; calls_used: number },
  };
}

beforeAll(async () => {
  fixture = await marketoFixture();
  session = await mcpSession(fixture.workspace);
});
afterAll(async () => {
  await session.close();
  await fixture.close();
});

/** Each lookup, a real name of its kind (read from the list of all), and that name with one letter off. */
const LOOKUPS = [
  { endpoint: "/rest/v1/lists.json", all: "/rest/v1/lists.json" },
  { endpoint: "/rest/v1/campaigns.json", all: "/rest/v1/campaigns.json" },
  { endpoint: "/rest/asset/v1/smartCampaign/byName.json", all: "/rest/asset/v1/smartCampaigns.json" },
  { endpoint: "/rest/asset/v1/staticList/byName.json", all: "/rest/asset/v1/staticLists.json" },
  { endpoint: "/rest/asset/v1/smartList/byName.json", all: "/rest/asset/v1/smartLists.json" },
  { endpoint: "/rest/asset/v1/program/byName.json", all: "/rest/asset/v1/programs.json" },
];

describe("exact-name lookups that find nothing name the nearest names", () => {
  for (const { endpoint, all } of LOOKUPS) {
    it(`GET ${endpoint}?name=… with a typo suggests the real name, which then finds the record`, async () => {
      const names = (await call({ method: "GET", endpoint: all })).data.result.map((r) => String(r.name));
      const real = names[names.length - 1]!;
      const typo = `${real.slice(0, -1)}#`;
      const { text, data } = await call({ method: "GET", endpoint, query_parameters: { name: typo } });
      expect(data.result).toHaveLength(0);
      expect(text).toContain(`No record is named exactly "${typo}" (the name must match exactly)`);
      expect(text).toMatch(/read with 1 more call/);
      const nearest = /the nearest names of the [^:]+: ((?:"[^"]+"(?:, )?)+)\./.exec(text)?.[1] ?? "";
      const suggested = [...nearest.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
      expect(suggested[0]).toBe(real);
      const found = await call({ method: "GET", endpoint, query_parameters: { name: suggested[0] } });
      expect(found.data.result.map((r) => r.name)).toContain(real);
      expect(found.text).not.toContain("No record is named exactly");
    });
  }

  it("a read without a name adds no suggestion", async () => {
    const plain = await call({ method: "GET", endpoint: "/rest/v1/campaigns.json" });
    expect(plain.text).not.toContain("No record is named exactly");
  });
});
