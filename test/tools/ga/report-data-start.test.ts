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

  it("offers ranges of one length, inside the asked ones, of days that can have data; equal ones stay day for day", () => {
    fc.assert(
      fc.property(
        arbRange,
        fc.oneof(arbRange, fc.integer({ min: -400, max: 400 })),
        fc.integer({ min: 0, max: 900 }),
        fc.integer({ min: 0, max: 1100 }),
        (a, other, first, now) => {
          // Half the time the second range is the first moved by whole days, as a year-over-year pair is.
          const move = (n: number) => (day: string) =>
            iso((Date.parse(day) - Date.UTC(2024, 0, 1)) / DAY + n);
          const b =
            typeof other === "number" ? range(move(other)(a.start_date), move(other)(a.end_date)) : other;
          const [firstDay, today] = [iso(first), iso(Math.max(first, now))];
          const note = dataStartNote([a, b], firstDay, true, today);
          if (a.start_date >= firstDay && b.start_date >= firstDay) return note === undefined;
          const json = / date_ranges (\[.*\])\.$/.exec(note ?? "")?.[1];
          if (!json) return (note ?? "").includes("No days of the ranges pair up");
          const aligned = JSON.parse(json) as { start_date: string; end_date: string }[];
          const asked = [a, b];
          const inside = aligned.every(
            (r, i) =>
              r.start_date >= firstDay &&
              r.end_date < today &&
              r.start_date <= r.end_date &&
              r.start_date >= (asked[i]?.start_date ?? "") &&
              r.end_date <= (asked[i]?.end_date ?? ""),
          );
          const sameLength = span(aligned[0] ?? a) === span(aligned[1] ?? b);
          // Ranges of one length keep their pairing: each moved by the same days from its start.
          const shift = (i: number) =>
            Date.parse(aligned[i]?.start_date ?? "") - Date.parse(asked[i]?.start_date ?? "");
          const paired = span(a) !== span(b) || shift(0) === shift(1);
          // Ranges of different lengths start on their first day with data.
          const starts =
            span(a) === span(b) ||
            aligned.every((r, i) => r.start_date === [asked[i]?.start_date ?? "", firstDay].sort()[1]);
          return inside && sameLength && paired && starts;
        },
      ),
    );
  });

  it("ends the days with data in both yesterday when a range runs to today (review s29, finding 6)", () => {
    const note = dataStartNote(
      [range("2025-09-01", "2025-12-31"), range("2026-09-01", "2026-12-31")],
      "2025-11-01",
      true,
      "2026-12-05",
    );
    expect(note).toContain(
      '[{"start_date":"2025-11-01","end_date":"2025-12-04"},{"start_date":"2026-11-01","end_date":"2026-12-04"}]',
    );
  });

  it("offers one comparison, of the days with data, when a longer range starts before the data (review s27, finding 8)", () => {
    const note = dataStartNote(
      [range("2025-10-25", "2025-12-31"), range("2026-11-01", "2026-11-10")],
      "2025-11-01",
      true,
      "2026-12-05",
    );
    expect(note).toContain(
      '[{"start_date":"2025-11-01","end_date":"2025-11-10"},{"start_date":"2026-11-01","end_date":"2026-11-10"}]',
    );
  });

  it("says the days with data end today when a range runs past it (review s26, finding 12)", () => {
    const note = dataStartNote([range("2024-01-01", "2027-01-31")], "2025-10-31", false, "2026-12-04");
    expect(note).toContain("Its figures cover only the days with data: 2025-10-31…2026-12-04.");
  });
});
