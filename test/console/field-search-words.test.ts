/**
 * A metric or dimension found by a marketer's words (src/tools/ga/field-search-words.ts with
 * console/src/choices.ts; newcomer trial 2026-12-02-s5, finding 6): "Conversions" finds Key events and
 * says they are now called so, "engagement time" finds user engagement, the very name typed is listed
 * first whatever its group, and Session default channel group says it is what GA4's Traffic
 * acquisition report uses.
 */
import { describe, expect, it } from "vitest";
import { type Choice, matching, namedChoice } from "../../console/src/choices.js";
import { withFieldWords } from "../../src/tools/ga/field-search-words.js";

// As the property's metadata lists them (category order as GA's), in the picker's form.
const FIELDS: Choice[] = [
  { value: "itemsViewedInPromotion", label: "Promotion views", group: "Ecommerce" },
  { value: "keyEvents", label: "Key events", group: "Event" },
  { value: "eventCount", label: "Event count", group: "Event" },
  { value: "screenPageViews", label: "Views", group: "Page / screen" },
  { value: "screenPageViewsPerSession", label: "Views per session", group: "Page / screen" },
  { value: "averageSessionDuration", label: "Average session duration", group: "Session" },
  { value: "sessionKeyEventRate", label: "Session key event rate", group: "Session" },
  { value: "userEngagementDuration", label: "User engagement", group: "User" },
  { value: "sessionDefaultChannelGroup", label: "Session default channel group", group: "Traffic source" },
  { value: "sessionPrimaryChannelGroup", label: "Session primary channel group", group: "Traffic source" },
  {
    value: "firstUserDefaultChannelGroup",
    label: "First user default channel group",
    group: "Traffic source",
  },
].map((field) => withFieldWords({ ...field, detail: field.value }));

const values = (typed: string) => matching(FIELDS, typed).map((choice) => choice.value);

describe("a GA field found by a marketer's words", () => {
  it("finds Key events by Conversions, and says they are now called so", () => {
    const found = matching(FIELDS, "Conversions");
    expect(found.map((choice) => choice.value)).toEqual(["keyEvents"]);
    expect(found[0]?.detail).toBe("Conversions, now called Key events");
    expect(values("conversion rate")).toEqual(["sessionKeyEventRate"]);
    // Typed and left, the word is the field.
    expect(namedChoice(FIELDS, "conversions")?.value).toBe("keyEvents");
    // Found by its own name, the field keeps its own detail.
    expect(matching(FIELDS, "Key events")[0]?.detail).toBe("keyEvents");
  });

  it("finds the engagement time metrics by engagement time", () => {
    expect(values("engagement time")).toEqual(["userEngagementDuration"]);
    expect(values("average engagement time")).toEqual(["userEngagementDuration"]);
    expect(values("session time")).toContain("averageSessionDuration");
  });

  it("lists the very name typed first, before a group that comes earlier", () => {
    expect(values("Views")).toEqual([
      "screenPageViews",
      "screenPageViewsPerSession",
      "itemsViewedInPromotion",
    ]);
  });

  it("marks the channel group GA4's Traffic acquisition report uses", () => {
    const channels = matching(FIELDS, "Channel");
    expect(channels.find((c) => c.value === "sessionDefaultChannelGroup")?.detail).toBe(
      "What GA4's Traffic acquisition report uses",
    );
    expect(channels.filter((c) => c.detail === "What GA4's Traffic acquisition report uses")).toHaveLength(1);
  });
});
