/**
 * The summary's sentence on periods of different length. An agent trial met "October has 31 days, lastMonth
 * 30 days, so the changes are mostly the difference in length" while the channels moved by −19 % to +153 %:
 * the sentence names both ranges by their dates and puts the length's effect as a figure, never as "mostly".
 */
import { describe, expect, it } from "vitest";
import { periodNote } from "../../../src/tools/ga/report-periods.js";

describe("periodNote", () => {
  it("names both ranges by their dates and states the length's effect, not that it explains the changes", () => {
    const ranges = [
      { start_date: "2026-10-02", end_date: "2026-10-31", name: "October" },
      { start_date: "2026-11-01", end_date: "2026-11-28", name: "lastMonth" },
    ];
    const note = periodNote(ranges, [0, 1], ["October", "lastMonth"], "2026-12-02");
    expect(note).not.toContain("mostly");
    expect(note).toBe(
      "The periods differ in length: 2026-10-02…2026-10-31 has 30 days, 2026-11-01…2026-11-28 28 days; from " +
        "the length alone, a count at an even daily rate changes by -6.7 %. Like for like, compare the same " +
        'days of each: date_ranges [{"start_date":"2026-11-01","end_date":"2026-11-28","name":"lastMonth"},' +
        '{"start_date":"2026-10-02","end_date":"2026-10-29","name":"October same days"}].',
    );
  });

  it("for whole calendar months, keeps the length's effect and offers the same days only as an option", () => {
    const ranges = [
      { start_date: "2026-10-01", end_date: "2026-10-31", name: "October" },
      { start_date: "2026-11-01", end_date: "2026-11-30", name: "November" },
    ];
    const note = periodNote(ranges, [0, 1], ["October", "November"], "2026-12-02");
    expect(note).toBe(
      "The periods differ in length: 2026-10-01…2026-10-31 has 31 days, 2026-11-01…2026-11-30 30 days; from " +
        "the length alone, a count at an even daily rate changes by -3.2 %. Both are whole calendar months, as " +
        "a month-over-month comparison usually takes them; to compare the same number of days instead: " +
        'date_ranges [{"start_date":"2026-11-01","end_date":"2026-11-30","name":"November"},' +
        '{"start_date":"2026-10-01","end_date":"2026-10-30","name":"October same days"}].',
    );
    // A month against a partial one, or two 2-month spans against months, is no whole-month comparison.
    const partial = [ranges[0], { start_date: "2026-11-01", end_date: "2026-11-29" }] as typeof ranges;
    expect(periodNote(partial, [0, 1], ["October", "November"], "2026-12-02")).toContain("Like for like");
  });

  it("says a range that runs to today is not final, by its dates", () => {
    const ranges = [
      { start_date: "2026-12-01", end_date: "2026-12-02", name: "thisMonth" },
      { start_date: "2026-11-01", end_date: "2026-11-02", name: "lastMonth same days" },
    ];
    expect(periodNote(ranges, [1, 0], ["thisMonth", "lastMonth same days"], "2026-12-02")).toBe(
      "The comparison is not final: 2026-12-01…2026-12-02 runs to today, which GA is still collecting. Like for " +
        'like, compare the whole days of each: date_ranges [{"start_date":"2026-12-01","end_date":"2026-12-01",' +
        '"name":"thisMonth same days"},{"start_date":"2026-11-01","end_date":"2026-11-01","name":"lastMonth same days"}].',
    );
    expect(periodNote(ranges, [1, 0], ["thisMonth", "lastMonth same days"], "2026-12-03")).toBeUndefined();
  });

  it("says a range wholly after today has no data yet, not that it runs to today (review s26, finding 12)", () => {
    const ranges = [
      { start_date: "2026-11-01", end_date: "2026-11-30" },
      { start_date: "2026-12-10", end_date: "2026-12-20" },
    ];
    const note = periodNote(ranges, [0, 1], ["November", "future"], "2026-12-04") ?? "";
    expect(note).toContain("2026-12-10…2026-12-20 lies after today: none of its days has data yet");
    expect(note).not.toContain("runs to today");
    // Nor does it offer days that cannot have data.
    expect(note).not.toContain("date_ranges");
  });

  it("offers the whole days of each when a range runs to or past today, up to yesterday (review s28, finding 3)", () => {
    const ranges = [
      { start_date: "2026-11-01", end_date: "2026-11-30", name: "nov" },
      { start_date: "2026-12-01", end_date: "2026-12-31", name: "dec" },
    ];
    const note = periodNote(ranges, [0, 1], ["nov", "dec"], "2026-12-05") ?? "";
    expect(note).toContain("2026-12-01…2026-12-31 runs to today");
    expect(note).toContain(
      '[{"start_date":"2026-12-01","end_date":"2026-12-04","name":"dec same days"},{"start_date":"2026-11-01","end_date":"2026-11-04","name":"nov same days"}]',
    );
    // Equal lengths too (October against December).
    const equal = periodNote(
      [
        { start_date: "2026-10-01", end_date: "2026-10-31" },
        { start_date: "2026-12-01", end_date: "2026-12-31" },
      ],
      [0, 1],
      ["oct", "dec"],
      "2026-12-05",
    );
    expect(equal).toContain('"start_date":"2026-10-01","end_date":"2026-10-04"');
    // A range after today has neither the length's effect nor an offer.
    const future = periodNote(
      [
        { start_date: "2026-11-01", end_date: "2026-11-30" },
        { start_date: "2026-12-10", end_date: "2026-12-20" },
      ],
      [0, 1],
      ["nov", "future"],
      "2026-12-05",
    );
    expect(future).not.toContain("from the length alone");
    // Today against yesterday: no whole day yet, so no offer of the same call (review s29, finding 8).
    const days = periodNote(
      [
        { start_date: "2026-12-04", end_date: "2026-12-04" },
        { start_date: "2026-12-05", end_date: "2026-12-05" },
      ],
      [0, 1],
      ["yesterday", "today"],
      "2026-12-05",
    );
    expect(days).toContain("No day of it is whole yet");
    expect(days).not.toContain("date_ranges");
  });

  it("offers no like-for-like days before the property's first day (review s26, finding 12)", () => {
    const ranges = [
      { start_date: "2025-10-01", end_date: "2025-11-09" },
      { start_date: "2026-11-01", end_date: "2026-11-10" },
    ];
    const before = periodNote(ranges, [0, 1], ["early", "recent"], "2026-12-04", "2025-10-31") ?? "";
    expect(before).toContain("The periods differ in length");
    expect(before).not.toContain("date_ranges");
    const after = periodNote(ranges, [0, 1], ["early", "recent"], "2026-12-04", "2025-09-01") ?? "";
    expect(after).toContain("date_ranges");
  });
});
