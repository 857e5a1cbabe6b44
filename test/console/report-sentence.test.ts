import { describe, expect, it } from "vitest";
import { emptyReportNote, reportSentence, zoneWords } from "../../console/src/google/report-sentence.js";
import { emptyReportHint } from "../../src/tools/ga/report-empty.js";

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

describe("an empty filtered report's note as the page says it (console review s13, finding 2)", () => {
  const ui = (field: string) => ({ activeUsers: "Active users" })[field] ?? field;
  it("names the filter and the metric by the pickers' names, and what to do on the page", () => {
    const note = emptyReportHint(["activeUsers", "country"], {
      metric: "activeUsers",
      total: 12_343,
      dimensionFiltered: true,
    });
    expect(emptyReportNote(note, "Country = united", ui)).toBe(
      "No rows: no visit on these dates had Country = united (without the filter, Active users is 12,343). " +
        "Check the value or remove the condition.",
    );
    expect(emptyReportNote(note, "Device category = mobile and Country = united", ui)).toMatch(
      /Check the values or remove a condition\.$/,
    );
    const none = emptyReportHint(["activeUsers"], {
      metric: "activeUsers",
      total: 0,
      dimensionFiltered: true,
    });
    expect(emptyReportNote(none, "Country = united", ui)).toBe(
      "No rows: these dates have no data, with the filter or without it (Active users is 0). Choose other dates.",
    );
    // Any other note is the step's.
    const other = emptyReportHint(["itemName"]);
    expect(emptyReportNote(other, "Country = united", ui)).toBe(other);
  });
});
