import { describe, expect, it } from "vitest";
import { reportSentence, zoneWords } from "../../console/src/google/report-sentence.js";

const SUMMARY =
  'Report on Retail Web Store (412345671) for 2026-11-01…2026-11-30, dates in America/New_York, only where deviceCategory = "mobile" and country = "United States": 13 rows of 13.';

describe("a report's sentence as the page says it (console review s10)", () => {
  it("says the filter by the fields' names and the zone as a place's time", () => {
    expect(
      reportSentence(SUMMARY, {
        asked: ' deviceCategory = "mobile" and country = "United States" ',
        only: "Device category = mobile and Country = United States",
      }),
    ).toBe(
      "Report on Retail Web Store (412345671) for 2026-11-01…2026-11-30, dates in New York time, only where Device category = mobile and Country = United States: 13 rows of 13.",
    );
  });

  it("words a filter sent as a GA expression too", () => {
    const text =
      "Report on X (1) for 2026-11-01…2026-11-30, dates in UTC, only where its filter matches: 2 rows of 2.";
    expect(reportSentence(text, { asked: { filter: {} }, only: "Country = France" })).toBe(
      "Report on X (1) for 2026-11-01…2026-11-30, dates in UTC, only where Country = France: 2 rows of 2.",
    );
  });

  it("leaves the filter as the step said it when the page has no words for it", () => {
    const said = reportSentence(SUMMARY, {
      asked: 'deviceCategory = "mobile" and country = "United States"',
    });
    expect(said).toContain('only where deviceCategory = "mobile"');
    expect(said).toContain("dates in New York time");
  });

  it("names zones by their place, UTC and GMT offsets as they are", () => {
    expect(zoneWords("America/New_York")).toBe("New York time");
    expect(zoneWords("America/Argentina/Buenos_Aires")).toBe("Buenos Aires time");
    expect(zoneWords("Europe/London")).toBe("London time");
    expect(zoneWords("UTC")).toBe("UTC");
    expect(zoneWords("Etc/GMT+5")).toBe("GMT+5");
  });
});
