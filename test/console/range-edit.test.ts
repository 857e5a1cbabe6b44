/**
 * A custom period edited in the form (console/src/range-edit.ts; trial 2026-12-02-s8, finding 3): the
 * example's label goes when the person changes the dates it was written for; a label the person typed stays.
 */
import { describe, expect, it } from "vitest";
import { editedRange } from "../../console/src/range-edit.js";

const EXAMPLE = { start_date: "28daysAgo", end_date: "yesterday", name: "last 28 days" };

describe("editedRange", () => {
  it("drops a label the form was given when either day changes", () => {
    expect(editedRange(EXAMPLE, "start_date", "2026-11-25")).toEqual({
      start_date: "2026-11-25",
      end_date: "yesterday",
    });
    expect(editedRange(EXAMPLE, "end_date", "2026-12-01").name).toBeUndefined();
  });

  it("keeps the label the person typed, and any label while the days stay as they are", () => {
    const typed = editedRange(EXAMPLE, "name", "this week", "this week");
    expect(typed.name).toBe("this week");
    expect(editedRange(typed, "start_date", "2026-11-25", "this week")).toEqual({
      start_date: "2026-11-25",
      end_date: "yesterday",
      name: "this week",
    });
    // The box left with the same day (a blur), or a label edited: the example's label is not touched.
    expect(editedRange(EXAMPLE, "start_date", "28daysAgo").name).toBe("last 28 days");
    // An example's label that replaced the one typed earlier is the example's.
    expect(editedRange(EXAMPLE, "end_date", "2026-12-01", "this week").name).toBeUndefined();
  });

  it("empties a box as no value", () => {
    expect(editedRange(EXAMPLE, "name", "", "")).toEqual({ ...EXAMPLE, name: undefined });
  });
});
