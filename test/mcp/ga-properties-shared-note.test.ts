/**
 * Trial s18, N181: over five properties, the note that October and November differ in length was said five
 * times. A note every property's answer has is said once, after the head; a note of one property stays with it.
 */
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

const ga = gaOverMcp();
const LENGTHS = "The periods differ in length";
const MONTHS = [
  { start_date: "2026-11-01", end_date: "2026-11-30", name: "November" },
  { start_date: "2026-10-01", end_date: "2026-10-31", name: "October" },
];

describe("notes over several properties", () => {
  it("a note every property has is said once; one property's note stays with it", async () => {
    const result = await ga.call("google_analytics_run_reports", {
      property: "Retail Web Store,Media News Site,Retail Staging (no data)",
      metrics: ["sessions"],
      dimensions: ["deviceCategory"],
      date_ranges: MONTHS,
    });
    expect(result.isError, firstText(result)).toBeFalsy();
    const summary = firstText(result).split("\n")[0] ?? "";
    expect(summary.split(LENGTHS).length - 1).toBe(1);
    // Said once, before the first property's own part.
    expect(summary.indexOf(LENGTHS)).toBeLessThan(summary.indexOf("Retail Web Store (properties/412345671)"));
    const alone = await ga.call("google_analytics_run_reports", {
      property: "Retail Web Store",
      metrics: ["sessions"],
      dimensions: ["deviceCategory"],
      date_ranges: MONTHS,
    });
    expect(firstText(alone)).toContain(LENGTHS);
  });

  it("says that users are counted in each property apart, once, and only for user metrics (trial s20, N222)", async () => {
    const APART = "counted in each property apart";
    const ask = (metrics: string[], property: string) =>
      ga.call("google_analytics_run_reports", { property, metrics, date_ranges: ["lastMonth"] });
    const users = await ask(["activeUsers", "sessions"], "Media News Site,Media Video Portal");
    const summary = firstText(users).split("\n")[0] ?? "";
    expect(summary.split(APART).length - 1).toBe(1);
    expect(summary).toContain("activeUsers is counted in each property apart");
    expect(firstText(await ask(["sessions"], "Media News Site,Media Video Portal"))).not.toContain(APART);
    expect(firstText(await ask(["activeUsers"], "Media News Site"))).not.toContain(APART);
  });
});
