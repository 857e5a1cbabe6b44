import { describe, expect, it } from "vitest";
import { gaReports, firstText as text } from "../helpers/ga-reports.js";

/** Review s56: GA names as its screens show them (44fb9ef4) tried beyond a plain dimension or metric. */
const PROPERTY = "412345671";

describe("review s56: GA's screen names", () => {
  const report = gaReports(PROPERTY);

  it("F8: a realtime report's screen names are offered their API names, nothing sent to Google", async () => {
    const metric = await report({ realtime: true, metrics: ["Active users"], dimensions: ["country"] });
    expect(metric.isError).toBe(true);
    // Before 44fb9ef4 the schema refused it here, nothing sent; now Google's INVALID_ARGUMENT comes back.
    expect(text(metric)).not.toContain("Google Analytics rejected the request");
    expect(text(metric)).toContain("activeUsers");
    const dimension = await report({
      realtime: true,
      metrics: ["activeUsers"],
      dimensions: ["Device category"],
    });
    expect(dimension.isError).toBe(true);
    expect(text(dimension)).not.toContain("Google Analytics rejected the request");
    expect(text(dimension)).toContain("deviceCategory");
  });

  it(`F9: a ratio of screen names ("Item revenue/Sessions") gets each part's API name offered`, async () => {
    const refused = await report({
      date_ranges: ["last7days"],
      metrics: ["Item revenue/Sessions"],
      dimensions: ["country"],
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("itemRevenue");
  });

  it('F10: "Item revenue/day" names its part "Item revenue", so the mean a day is kept', async () => {
    const refused = await report({
      date_ranges: ["last7days"],
      metrics: ["Item revenue/day"],
      dimensions: ["country"],
    });
    expect(refused.isError).toBe(true);
    const offered = /did you mean "([^"]+)"/.exec(text(refused))?.[1];
    // As "Item revenue%" and "Item revenue%change" do: name the metric part, or offer the column whole.
    expect(offered === "itemRevenue/day" || text(refused).includes('"Item revenue" is not a metric')).toBe(
      true,
    );
  });

  it("F11: a screen-name metric sorted by the same name is offered the metric's API name", async () => {
    const refused = await report({
      date_ranges: ["last7days"],
      metrics: ["Item revenue"],
      dimensions: ["country"],
      order_by: "-Item revenue",
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("itemRevenue");
  });
});
