import { describe, expect, it } from "vitest";
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
