/**
 * The days each period preset covers, as the form shows them under the period select before Run (newcomer
 * trial 2026-12-03-s9, finding 5: "Yesterday" was 2 Dec where the task said 1 Dec, and nothing said so before
 * the result), resolved by Run Reports' own code in the property's time zone; and the comparison example's
 * periods as a person picks them (finding 6: 28daysAgo and yesterday in text boxes).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { daysOfRelative } from "../../console/src/range-edit.js";
import { presetDays } from "../../src/console/google-pickers.js";
import { DATE_PRESETS } from "../../src/schemas/google-analytics.js";
import { resolveDateRanges, statedRanges } from "../../src/tools/ga/date-presets.js";
import { getToolStep } from "../../src/tools/registry.js";

// 03:00 UTC on 3 Dec is still 2 Dec in New York.
const NOW = new Date("2026-12-03T03:00:00Z");
const DAY = 86_400_000;
const span = (range: { start_date: string; end_date: string } | undefined) =>
  range ? (Date.parse(range.end_date) - Date.parse(range.start_date)) / DAY + 1 : 0;

describe("a preset's days before Run", () => {
  it("gives every preset's days in the property's time zone", () => {
    const york = presetDays(NOW, "America/New_York");
    expect(Object.keys(york)).toEqual([...DATE_PRESETS]);
    expect(york.today).toEqual({ start_date: "2026-12-02", end_date: "2026-12-02" });
    expect(york.yesterday).toEqual({ start_date: "2026-12-01", end_date: "2026-12-01" });
    expect(york.last7days).toEqual({ start_date: "2026-11-25", end_date: "2026-12-01" });
    expect(york.lastMonth).toEqual({ start_date: "2026-11-01", end_date: "2026-11-30" });
    const utc = presetDays(NOW, undefined);
    expect(utc.yesterday).toEqual({ start_date: "2026-12-02", end_date: "2026-12-02" });
    expect(utc.last7days).toEqual({ start_date: "2026-11-26", end_date: "2026-12-02" });
    for (const n of [7, 14, 28, 30, 90, 365]) expect(span(york[`last${n}days`])).toBe(n);
  });
});

describe("the comparison example's periods", () => {
  const example = getToolStep("google_analytics_run_reports")
    .examples(NOW)
    .find((one) => one.title.startsWith("Sessions by channel"));
  const [later, earlier] = (example?.input.date_ranges ?? []) as [unknown, Record<string, string>];
  const zones = fc.constantFrom(
    undefined,
    "America/New_York",
    "America/Los_Angeles",
    "Asia/Tokyo",
    "Pacific/Kiritimati",
  );
  const instants = fc.date({
    min: new Date("2025-01-01T00:00:00Z"),
    max: new Date("2027-12-31T23:59:59Z"),
    noInvalidDate: true,
  });

  it("picks Last 28 days, and the 28 days before it in the property's days as the form shows them, labelled", () => {
    expect(later).toBe("last28days");
    expect(earlier.name).toBe("the 28 days before");
    fc.assert(
      fc.property(instants, zones, (now, zone) => {
        const days = presetDays(now, zone);
        // The form turns the example's relative days into the property's days from its yesterday.
        const shown = daysOfRelative(earlier, days.yesterday?.start_date ?? "");
        const last28 = days.last28days;
        expect(span(shown as { start_date: string; end_date: string })).toBe(28);
        expect(Date.parse(last28?.start_date ?? "") - Date.parse(shown?.end_date ?? "")).toBe(DAY);
        expect(shown?.name).toBe("the 28 days before");
      }),
    );
  });

  it("shows a relative day as the day Run Reports resolves it to, in any time zone", () => {
    const relative = fc.oneof(
      fc.nat({ max: 4000 }).map((n) => `${n}daysAgo`),
      fc.constantFrom("yesterday", "today"),
    );
    fc.assert(
      fc.property(instants, zones, relative, (now, zone, day) => {
        const shown = daysOfRelative(
          { start_date: day, end_date: day },
          presetDays(now, zone).yesterday?.start_date ?? "",
        );
        const [stated] = statedRanges(
          resolveDateRanges([{ start_date: day, end_date: day }], now, zone).dateRanges,
          now,
          zone,
        );
        expect(shown?.start_date).toBe(stated?.start_date);
        expect(shown?.end_date).toBe(stated?.end_date);
      }),
    );
  });
});
