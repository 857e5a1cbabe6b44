/**
 * A GA4 property in the page by its display name, its id in parentheses (console/src/google/property-words.ts;
 * trial 2026-12-02-s8, maintainers' review: the headline and the chart said "properties/412345671").
 */
import { describe, expect, it } from "vitest";
import { propertyWords } from "../../console/src/google/property-words.js";

const NAMES = { "412345671": "Retail Web Store" };

describe("propertyWords", () => {
  it("keeps the step's name and gives the id alone in parentheses", () => {
    expect(
      propertyWords(
        "Report on Retail Web Store (properties/412345671) for 2026-11-01…2026-11-30, dates in America/New_York: 10 rows of 15.",
        {},
      ),
    ).toBe(
      "Report on Retail Web Store (412345671) for 2026-11-01…2026-11-30, dates in America/New_York: 10 rows of 15.",
    );
  });

  it("names a property the step left unnamed by the name the page knows, else by its id", () => {
    expect(propertyWords("Report on properties/412345671 for 2026-12-01: 5 rows of 5.", NAMES)).toBe(
      "Report on Retail Web Store (412345671) for 2026-12-01: 5 rows of 5.",
    );
    expect(propertyWords("properties/412345671 · rows 1–100 of 1,234", NAMES)).toBe(
      "Retail Web Store (412345671) · rows 1–100 of 1,234",
    );
    expect(propertyWords("properties/999", NAMES)).toBe("Property 999");
    expect(propertyWords("Report on properties/999: 1 row of 1.", NAMES)).toBe(
      "Report on property 999: 1 row of 1.",
    );
  });

  it("leaves a request's path and other text as they are", () => {
    const note = "To see the property's Google Ads links: GET v1beta/properties/412345671/googleAdsLinks.";
    expect(propertyWords(note, NAMES)).toBe(note);
    expect(propertyWords("Retail Web Store", NAMES)).toBe("Retail Web Store");
  });
});
