import { describe, expect, it } from "vitest";
import { ValidationError } from "../../../src/errors.js";
import { resolveDateRanges } from "../../../src/tools/ga/date-presets.js";
import { listedSteps } from "../../../src/tools/listing.js";

// Friday 20 November 2026, 15:00 UTC.
const NOW = new Date("2026-11-20T15:00:00Z");

describe("resolveDateRanges", () => {
  it("defaults to the last 7 days ending yesterday, kept relative for the property's time zone", () => {
    const resolved = resolveDateRanges(undefined, NOW);
    expect(resolved.dateRanges).toEqual([{ startDate: "7daysAgo", endDate: "yesterday" }]);
    expect(resolved.calendarInUtc).toBe(false);
    expect(resolved.includesRecent).toBe(true);
  });

  it.each([
    ["today", { startDate: "today", endDate: "today" }],
    ["yesterday", { startDate: "yesterday", endDate: "yesterday" }],
    ["last28days", { startDate: "28daysAgo", endDate: "yesterday" }],
    ["last90days", { startDate: "90daysAgo", endDate: "yesterday" }],
    ["thisWeek", { startDate: "2026-11-15", endDate: "2026-11-20" }],
    ["lastWeek", { startDate: "2026-11-08", endDate: "2026-11-14" }],
    ["thisMonth", { startDate: "2026-11-01", endDate: "2026-11-20" }],
    ["lastMonth", { startDate: "2026-10-01", endDate: "2026-10-31" }],
    ["thisQuarter", { startDate: "2026-10-01", endDate: "2026-11-20" }],
    ["lastQuarter", { startDate: "2026-07-01", endDate: "2026-09-30" }],
    ["thisYear", { startDate: "2026-01-01", endDate: "2026-11-20" }],
    ["lastYear", { startDate: "2025-01-01", endDate: "2025-12-31" }],
  ] as const)("%s", (preset, range) => {
    expect(resolveDateRanges([preset], NOW).dateRanges).toEqual([range]);
  });

  it("handles month and year boundaries (lastMonth in January is December of last year)", () => {
    const january = new Date("2027-01-03T00:30:00Z");
    expect(resolveDateRanges(["lastMonth"], january).dateRanges[0]).toEqual({
      startDate: "2026-12-01",
      endDate: "2026-12-31",
    });
    expect(resolveDateRanges(["lastQuarter"], january).dateRanges[0]).toEqual({
      startDate: "2026-10-01",
      endDate: "2026-12-31",
    });
  });

  it("names preset ranges when several are compared, and marks calendar presets", () => {
    const resolved = resolveDateRanges(["thisMonth", "lastMonth"], NOW);
    expect(resolved.dateRanges.map((r) => r.name)).toEqual(["thisMonth", "lastMonth"]);
    expect(resolved.calendarInUtc).toBe(true);
  });

  it("passes explicit ranges through and flags only those ending in the last 48 hours", () => {
    const old = resolveDateRanges([{ start_date: "2026-01-01", end_date: "2026-01-31", name: "jan" }], NOW);
    expect(old.dateRanges).toEqual([{ startDate: "2026-01-01", endDate: "2026-01-31", name: "jan" }]);
    expect(old.includesRecent).toBe(false);
    expect(resolveDateRanges([{ start_date: "30daysAgo", end_date: "3daysAgo" }], NOW).includesRecent).toBe(
      false,
    );
    expect(resolveDateRanges([{ start_date: "30daysAgo", end_date: "2026-11-19" }], NOW).includesRecent).toBe(
      true,
    );
  });

  it("refuses impossible dates, reversed ranges and repeated names", () => {
    expect(() => resolveDateRanges([{ start_date: "2026-02-30", end_date: "2026-03-01" }], NOW)).toThrow(
      /date_ranges\[0\]\.start_date.*not a real calendar date/,
    );
    expect(() => resolveDateRanges([{ start_date: "2026-03-01", end_date: "2026-02-01" }], NOW)).toThrow(
      ValidationError,
    );
    expect(() => resolveDateRanges([{ start_date: "3daysAgo", end_date: "10daysAgo" }], NOW)).toThrow(
      /starts/,
    );
    expect(() =>
      resolveDateRanges(
        [
          { start_date: "today", end_date: "today", name: "a" },
          { start_date: "yesterday", end_date: "yesterday", name: "a" },
        ],
        NOW,
      ),
    ).toThrow(/used twice/);
  });

  it("resolves calendar presets in the property's time zone when it is known", () => {
    // 02:00 UTC on 1 March is still 28 February in Los Angeles.
    const at = new Date("2025-03-01T02:00:00Z");
    const zoned = resolveDateRanges(["thisMonth", "lastMonth"], at, "America/Los_Angeles");
    expect(zoned.dateRanges.map((r) => [r.startDate, r.endDate])).toEqual([
      ["2025-02-01", "2025-02-28"],
      ["2025-01-01", "2025-01-31"],
    ]);
    expect(zoned.calendarInUtc).toBe(false);
    expect(zoned.calendar).toBe(true);
    const utc = resolveDateRanges(["thisMonth"], at);
    expect(utc.dateRanges[0]).toMatchObject({ startDate: "2025-03-01", endDate: "2025-03-01" });
    expect(utc.calendarInUtc).toBe(true);
  });

  it("is what the published date_ranges description tells the model (the property's zone, not UTC)", () => {
    const step = listedSteps().find((listed) => listed.name === "google_analytics_run_reports");
    const properties = step?.inputSchema.properties as Record<string, { description?: string }> | undefined;
    const description = properties?.date_ranges?.description;
    expect(description).toContain("calendar presets are in the property's time zone");
    expect(description).not.toContain("resolved in UTC");
  });
});
