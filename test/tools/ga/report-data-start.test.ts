/**
 * The data-start note (report-data-start.ts): which ranges reach before the property's first day, by how
 * many days, and the aligned comparison, every range cut by the same days so they still pair day for day.
 */
import fc from "fast-check";
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

describe("dataStartNote's aligned comparison, for any two ranges and first day", () => {
  const DAY = 86_400_000;
  const iso = (n: number) => new Date(Date.UTC(2024, 0, 1) + n * DAY).toISOString().slice(0, 10);
  const span = (r: { start_date: string; end_date: string }) =>
    Math.round((Date.parse(r.end_date) - Date.parse(r.start_date)) / DAY) + 1;
  const arbRange = fc
    .tuple(fc.integer({ min: 0, max: 900 }), fc.integer({ min: 0, max: 120 }))
    .map(([start, days]) => range(iso(start), iso(start + days)));

  it("starts every range on or after the first day and cuts each by the same days, ends kept", () => {
    fc.assert(
      fc.property(arbRange, arbRange, fc.integer({ min: 0, max: 900 }), (a, b, first) => {
        const firstDay = iso(first);
        const note = dataStartNote([a, b], firstDay, true);
        if (a.start_date >= firstDay && b.start_date >= firstDay) return note === undefined;
        const json = / date_ranges (\[.*\])\.$/.exec(note ?? "")?.[1];
        if (!json) return (note ?? "").includes("No days of the ranges pair up");
        const aligned = JSON.parse(json) as { start_date: string; end_date: string }[];
        const cuts = [a, b].map((r, i) => span(r) - span(aligned[i] ?? r));
        return (
          aligned.every((r, i) => r.start_date >= firstDay && r.end_date === [a, b][i]?.end_date) &&
          cuts[0] === cuts[1] &&
          (cuts[0] ?? 0) > 0 &&
          aligned.every((r) => r.start_date <= r.end_date)
        );
      }),
    );
  });

  it("says the days with data end today when a range runs past it (review s26, finding 12)", () => {
    const note = dataStartNote([range("2024-01-01", "2027-01-31")], "2025-10-31", false, "2026-12-04");
    expect(note).toContain("Its figures cover only the days with data: 2025-10-31…2026-12-04.");
  });
});
