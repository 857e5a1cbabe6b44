import { describe, expect, it } from "vitest";
import { firstText, gaReports } from "../helpers/ga-reports.js";

/**
 * Trial s48, N656: the refusal of "Customer tier" offered "customUser:customer_tier", but its hint sent the agent to
 * the property's metadata, and it read 22,486 characters to find the name it had been offered. With every name
 * offered, the hint now says to use the offer; the hint, done, answers.
 */
describe("a refused GA name's hint leads with the name offered (trial s48, N656)", () => {
  const report = gaReports("412345671");
  const asked = { date_ranges: ["last28days"], metrics: ["totalPurchasers"] };

  it("says to use the offered name, and the offered name answers", async () => {
    const refused = await report({ ...asked, dimensions: ["Customer tier"] });
    expect(refused.isError).toBe(true);
    const text = firstText(refused);
    const offered = /did you mean "([^"]+)"/.exec(text)?.[1];
    expect(offered).toBe("customUser:customer_tier");
    expect(text).toContain(
      "Use the names offered above; for any other, the API names in the property's metadata",
    );
    const fixed = await report({ ...asked, dimensions: [offered] });
    expect(fixed.isError, firstText(fixed)).toBeFalsy();
  });

  it("points at the metadata alone when a name has no offer", async () => {
    const refused = await report({ ...asked, dimensions: ["Customer tier", "zzqqxxwwvv"] });
    expect(refused.isError).toBe(true);
    expect(firstText(refused)).not.toContain("Use the names offered above");
    expect(firstText(refused)).toContain("Use API names from the property's metadata");
  });
});
