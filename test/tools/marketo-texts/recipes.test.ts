import { describe, expect, it } from "vitest";
import { marketoOverMcp } from "../../helpers/marketo-mcp.js";

/**
 * Names instead of ids: the step's description and the recipes resource say how to find a static list,
 * smart campaign, program, email or folder by name in one call; each recipe, read from the resource
 * over MCP, is run against the sandbox with a name the sandbox holds and finds exactly that object.
 */
interface Recipe {
  task: string;
  call: { method: string; endpoint: string; query_parameters: Record<string, string> };
  note: string;
}

const mkto = marketoOverMcp({});
const call = async (args: Record<string, unknown>) =>
  (await mkto.ok<{ result: Record<string, unknown>[] }>(args)).data.result;

/** A name the sandbox holds for each task, taken from a browse call as an agent without names would. */
const SOURCES: Record<string, { endpoint: string; pick: (items: Record<string, unknown>[]) => string }> = {
  "a static list by name": { endpoint: "/rest/v1/lists.json", pick: (items) => String(items[3]?.name) },
  "a smart campaign by name": {
    endpoint: "/rest/v1/campaigns.json",
    pick: (items) => String(items[2]?.name),
  },
  "a program by name": { endpoint: "/rest/asset/v1/programs.json", pick: (items) => String(items[4]?.name) },
  "an email by name": { endpoint: "/rest/asset/v1/emails.json", pick: (items) => String(items[6]?.name) },
  "a folder by name": { endpoint: "/rest/asset/v1/folders.json", pick: (items) => String(items[1]?.name) },
};

describe("finding Marketo objects by name in one call", () => {
  it("is listed as a resource and named in the step's description", async () => {
    const { resources } = await mkto.session.client.listResources();
    expect(resources.map((r) => r.uri)).toContain("martech-steps://recipes/marketo");
    const { tools } = await mkto.session.client.listTools();
    const description = tools.find((t) => t.name === "marketo_api_call")?.description ?? "";
    for (const path of [
      "/rest/v1/lists.json?name=",
      "/rest/v1/campaigns.json?name=",
      "/rest/asset/v1/program/byName.json?name=",
      "/rest/asset/v1/email/byName.json?name=",
      "/rest/asset/v1/folder/byName.json?name=",
      "martech-steps://recipes/marketo",
    ]) {
      expect(description).toContain(path);
    }
  });

  it("each recipe of the resource finds the object of that name, in one call", async () => {
    const { contents } = await mkto.session.client.readResource({ uri: "martech-steps://recipes/marketo" });
    const { recipes } = JSON.parse((contents[0] as { text: string }).text) as { recipes: Recipe[] };
    expect(recipes.map((r) => r.task)).toEqual(Object.keys(SOURCES));
    for (const recipe of recipes) {
      const source = SOURCES[recipe.task];
      if (!source) throw new Error(`no source for ${recipe.task}`);
      const name = source.pick(await call({ method: "GET", endpoint: source.endpoint }));
      expect(name).not.toBe("undefined");
      const query = Object.fromEntries(
        Object.entries(recipe.call.query_parameters).map(([k, v]) => [k, v.replace("<name>", name)]),
      );
      mkto.fixture.sandbox.resetStats();
      const found = await call({ ...recipe.call, query_parameters: query });
      expect(found.length, recipe.task).toBeGreaterThanOrEqual(1);
      for (const item of found) expect(item.name, recipe.task).toBe(name);
      expect(mkto.fixture.sandbox.stats().callsByPath[recipe.call.endpoint], recipe.task).toBe(1);
    }
  });
});
