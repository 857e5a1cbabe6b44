import { describe, expect, it } from "vitest";
import { marketoOverMcp } from "../helpers/marketo-mcp.js";

/**
 * Trial s15, N133: "who has a Marketo login" took two refusals. /rest/userservice/… answered 610 with "did you
 * mean /userservice/management/v1/users/allusers.json?", and calling that, as the hint said, was refused as
 * outside the allowed paths. The 610 now names the real path as one this step does not call (no hint that
 * loops), and the recipes' list of what the REST API does not offer here says so before any call.
 */
const mkto = marketoOverMcp({});

describe("Marketo's user management", () => {
  it("is named as outside the step's paths, and no hint offers a path the step refuses", async () => {
    const wrong = await mkto.call({
      method: "GET",
      endpoint: "/rest/userservice/management/v1/users/allusers.json",
    });
    expect(wrong.result.isError).toBe(true);
    expect(wrong.first).not.toContain("did you mean");
    expect(wrong.first).toContain(
      "The nearest real one, /userservice/management/v1/users/allusers.json, is outside the paths this step calls (/rest/ and /bulk/)",
    );
    // Doing what it says not to: refused before anything is sent, so the words above are the right ones.
    const named = /The nearest real one, (\S+),/.exec(wrong.first)?.[1] ?? "";
    const outside = await mkto.call({ method: "GET", endpoint: named });
    expect(outside.result.isError).toBe(true);
    expect(outside.first).toContain("it is outside the allowed API paths");

    // A typo inside /rest/ still gets its "did you mean".
    const typo = await mkto.call({ method: "GET", endpoint: "/rest/v1/list/1001.json" });
    expect(typo.first).toContain("did you mean /rest/v1/lists/{listId}.json?");

    const { contents } = await mkto.session.client.readResource({ uri: "martech-steps://recipes/marketo" });
    const recipes = JSON.parse((contents[0] as { text: string }).text) as { not_in_the_rest_api: string[] };
    expect(recipes.not_in_the_rest_api.some((line) => line.startsWith("No users or roles:"))).toBe(true);
  });
});
