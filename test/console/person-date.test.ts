/** A typed day with its month in words as the form's YYYY-MM-DD (console/src/person-date.ts; trial s7, finding 11). */
import { describe, expect, it } from "vitest";
import { isoFromWords } from "../../console/src/person-date.js";

describe("isoFromWords", () => {
  it("reads a day with its month in words, day first or month first", () => {
    expect(isoFromWords("18 Nov 2026")).toBe("2026-11-18");
    expect(isoFromWords(" 1 September 2026 ")).toBe("2026-09-01");
    expect(isoFromWords("3 Sept. 2026")).toBe("2026-09-03");
    expect(isoFromWords("Nov 18, 2026")).toBe("2026-11-18");
    expect(isoFromWords("March 2nd 2026")).toBe("2026-03-02");
  });

  it("leaves a day in numbers only (its order differs by country), a day that does not exist and other text", () => {
    expect(isoFromWords("18/11/2026")).toBeUndefined();
    expect(isoFromWords("11/18/2026")).toBeUndefined();
    expect(isoFromWords("31 Nov 2026")).toBeUndefined();
    expect(isoFromWords("18 No 2026")).toBeUndefined();
    expect(isoFromWords("28daysAgo")).toBeUndefined();
    expect(isoFromWords("next week")).toBeUndefined();
  });
});
