import { describe, expect, it, vi } from "vitest";
import { chicagoDay, nextChicagoMidnight } from "../../../src/connectors/marketo/chicago-day.js";

describe("Marketo's quota day (America/Chicago)", () => {
  it.each([
    // [now (UTC), Chicago day, next midnight (UTC)]
    ["2025-01-15T18:00:00Z", "2025-01-15", "2025-01-16T06:00:00.000Z"], // CST, UTC-6
    ["2025-07-01T12:00:00Z", "2025-07-01", "2025-07-02T05:00:00.000Z"], // CDT, UTC-5
    ["2025-01-16T05:59:59Z", "2025-01-15", "2025-01-16T06:00:00.000Z"], // one second before midnight
    ["2025-01-16T06:00:00Z", "2025-01-16", "2025-01-17T06:00:00.000Z"], // exactly midnight
    ["2025-03-08T12:00:00Z", "2025-03-08", "2025-03-09T06:00:00.000Z"], // the night DST starts (2 AM)
    ["2025-03-09T12:00:00Z", "2025-03-09", "2025-03-10T05:00:00.000Z"], // first DST day
    ["2025-11-01T12:00:00Z", "2025-11-01", "2025-11-02T05:00:00.000Z"], // the night DST ends
    ["2025-11-02T12:00:00Z", "2025-11-02", "2025-11-03T06:00:00.000Z"],
    ["2025-12-31T23:00:00Z", "2025-12-31", "2026-01-01T06:00:00.000Z"], // year end
  ])("at %s the day is %s and resets at %s", (now, day, next) => {
    const at = Date.parse(now);
    expect(chicagoDay(at)).toBe(day);
    expect(nextChicagoMidnight(at).toISOString()).toBe(next);
  });
});

describe("the Chicago day is worked out once a day", () => {
  it("formats once for many questions within a day, and again after its midnight", () => {
    const formatToParts = vi.spyOn(Intl.DateTimeFormat.prototype, "formatToParts");
    try {
      const noon = Date.UTC(2025, 6, 10, 17); // 12:00 in Chicago (CDT)
      chicagoDay(noon - 1_000);
      formatToParts.mockClear();
      for (let i = 0; i < 100; i++) {
        expect(chicagoDay(noon + i * 60_000)).toBe("2025-07-10");
        nextChicagoMidnight(noon + i * 60_000);
      }
      expect(formatToParts).not.toHaveBeenCalled();
      // Midnight in Chicago is 05:00 UTC in July: one more computation, for the new day.
      expect(chicagoDay(Date.UTC(2025, 6, 11, 5))).toBe("2025-07-11");
      expect(chicagoDay(Date.UTC(2025, 6, 11, 4, 59, 59))).toBe("2025-07-10");
    } finally {
      formatToParts.mockRestore();
    }
  });
});
