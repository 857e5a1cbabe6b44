/**
 * Trial s16, N142: "organicGoogleSearchQuery is not a dimension of this property" read as a misspelling, and a
 * report of Search Console's clicks said only "No rows matched". The refusal says GA has no search-query
 * dimension and names what it has; doing what it says runs, and its empty answer says why (no Search Console
 * link). A mere misspelling of a name the property has is still told that name.
 */
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

const ga = gaOverMcp();
const report = (args: Record<string, unknown>) =>
  ga.call("google_analytics_run_reports", {
    property: "Retail Web Store",
    date_ranges: ["last28days"],
    ...args,
  });

describe("Google search queries asked of GA", () => {
  it("are refused as not in GA, and the Search Console metrics the refusal names run and say why they are empty", async () => {
    const refused = await report({ metrics: ["sessions"], dimensions: ["organicGoogleSearchQuery"] });
    expect(refused.isError).toBe(true);
    expect(firstText(refused)).toContain("GA4's Data API has no dimension of the Google search queries");
    expect(firstText(refused)).toContain("organicGoogleSearchClicks");
    expect(firstText(refused)).toContain("by landingPage");
    const clicks = await report({ metrics: ["organicGoogleSearchClicks"], dimensions: ["landingPage"] });
    expect(clicks.isError, firstText(clicks)).toBeFalsy();
    expect(firstText(clicks).split("\n")[0]).toContain("only on a property linked to Search Console");
  });

  it("a misspelt name the property has is told its name, not the Search Console words", async () => {
    const refused = await report({ metrics: ["sessions"], dimensions: ["googleadsquery"] });
    expect(firstText(refused)).toContain('did you mean "googleAdsQuery"');
    expect(firstText(refused)).not.toContain("Search Console");
  });

  it("a report with sessions says nothing of Search Console", async () => {
    const plain = await report({ metrics: ["sessions"], dimensions: ["landingPage"] });
    expect(firstText(plain)).not.toContain("Search Console");
  });
});
