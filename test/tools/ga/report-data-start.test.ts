/**
 * The data-start note (report-data-start.ts): which ranges reach before the property's first day, by how
 * many days, and the aligned comparison, every range cut by the same days so they still pair day for day.
 */
import { describe, expect, it } from "vitest";
import { dataStartNote } from "../../../src/tools/ga/report-data-start.js";

const range = (start_date: string, end_date: string) => ({ start_date, end_date });

describe("dataStartNote", () => {
  it("says nothing when every range starts on or after the first day", () => {
    expect(dataStartNote([range("2025-10-29", "2025-11-30")], "2025-10-29", false)).toBeUndefined();
    expect(
      dataStartNote(
        [range("2026-11-01", "2026-11-30"), range("2025-11-01", "2025-11-30")],
        "2025-10-29",
        true,
      ),
    ).toBeUndefined();
  });

  it("cuts both ranges by the days the earlier one lacks, keeping them the same length", () => {
    const note = dataStartNote(
      [range("2026-10-01", "2026-12-01"), range("2025-10-01", "2025-12-01")],
      "2025-10-29",
      true,
    );
    expect(note).toContain('[{"start_date":"2026-10-29","end_date":"2026-12-01"},');
    expect(note).toContain('{"start_date":"2025-10-29","end_date":"2025-12-01"}]');
  });

  it("cuts by the larger lack when both ranges start before it", () => {
    const note = dataStartNote(
      [range("2025-10-20", "2025-11-10"), range("2025-10-10", "2025-10-31")],
      "2025-10-29",
      true,
    );
    expect(note).toContain("2025-10-20…2025-11-10 has 9 of its 22 days before it");
    expect(note).toContain("2025-10-10…2025-10-31 has 19 of its 22 days before it");
    expect(note).toContain(
      '[{"start_date":"2025-11-08","end_date":"2025-11-10"},{"start_date":"2025-10-29","end_date":"2025-10-31"}]',
    );
  });

  it("says when a range has no data at all, and that no aligned comparison exists", () => {
    const note = dataStartNote(
      [range("2026-10-01", "2026-10-31"), range("2025-10-01", "2025-10-28")],
      "2025-10-29",
      true,
    );
    expect(note).toContain("2025-10-01…2025-10-28 ends before it: none of its 28 days has data");
    expect(note).toContain("No days of the ranges pair up with data in both");
    expect(note).not.toContain("date_ranges");
  });
});
