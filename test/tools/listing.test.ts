import { describe, expect, it } from "vitest";
import { listTools } from "../../src/mcp/tools.js";
import { STEP_LISTING } from "../../src/tools/listing.generated.js";
import { buildStepListing } from "../../src/tools/listing-build.js";
import { toolsFromZod } from "../helpers/zod-tools.js";

// The tool list is served from JSON Schemas made at build time; it must be, byte for byte, what the
// steps' zod schemas make at run time.
describe("the step listing made at build time", () => {
  it("src/tools/listing.generated.ts is what the registry's zod schemas make (run npm run manifest)", () => {
    // Compared as text: key order is part of what clients receive.
    expect(JSON.stringify(STEP_LISTING, null, 1)).toBe(JSON.stringify(buildStepListing(), null, 1));
  });

  it.each([
    [[]],
    [["marketing"]],
    [["marketing", "sales"]],
    [["a", "b", "c"]],
    [["same", "same"]],
    [['"quoted" \\ label', "é", "\u0000account-1"]],
  ])("tools/list for accounts %j is what zod makes for them", (accounts: string[]) => {
    const context = { accounts };
    const listed = listTools(context);
    const fromZod = toolsFromZod(context);
    expect(JSON.stringify(listed)).toBe(JSON.stringify(fromZod));
  });
});
