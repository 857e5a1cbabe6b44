import { describe, expect, it } from "vitest";
import { profileOf } from "../../../../src/sandbox/google/data/catalog-values.js";
import { collectedEventNames, Dataset, generateDay } from "../../../../src/sandbox/google/data/dataset.js";
import { NOW } from "../../../helpers/ga-data-sandbox.js";

describe("seeded data set", () => {
  it("collects some events only in some properties, and nothing in a property whose id ends in 0", () => {
    const shop = collectedEventNames("412345671", 30, NOW);
    const leads = collectedEventNames("412345674", 30, NOW);
    expect(shop).toContain("purchase");
    expect(shop).toContain("page_view");
    expect(leads).toContain("generate_lead");
    expect(leads).not.toContain("purchase");
    expect(shop).not.toContain("generate_lead");
    expect(collectedEventNames("412345670", 30, NOW)).toEqual([]);
    expect(profileOf("412345670").kind).toBe("none");
  });

  it("is a pure function of (seed, property, day), and the seed changes the numbers", () => {
    const day = 20_000;
    expect(generateDay(7, "412345671", day)).toEqual(generateDay(7, "412345671", day));
    expect(generateDay(8, "412345671", day)).not.toEqual(generateDay(7, "412345671", day));
    const names = (seed: number) =>
      new Set(generateDay(seed, "412345671", day).flatMap((s) => s.events.map((e) => e.name)));
    expect(names(8)).toEqual(names(7));
  });

  it("stays compact, consistent and windowed: 400 days of history, none in the future", () => {
    const data = new Dataset(7);
    const today = Math.floor(NOW / 86_400_000);
    let eventRows = 0;
    for (let day = today - 399; day <= today; day++) {
      for (const slice of data.visible("412345671", day, NOW, "UTC")) {
        eventRows += slice.events.length;
        expect(slice.activeUsers).toBeLessThanOrEqual(slice.totalUsers);
        expect(slice.newUsers).toBeLessThanOrEqual(slice.totalUsers);
        expect(slice.engagedSessions).toBeLessThanOrEqual(slice.sessions);
        const start = slice.events.find((e) => e.name === "session_start");
        expect(start?.count).toBe(slice.sessions);
        const purchase = slice.events.find((e) => e.name === "purchase");
        const itemRevenue = slice.items.reduce((a, i) => a + i.revenueUsd, 0);
        expect(itemRevenue).toBeCloseTo(purchase?.revenueUsd ?? 0, 2);
      }
    }
    expect(eventRows).toBeGreaterThan(10_000);
    expect(eventRows).toBeLessThan(80_000);
    expect(data.visible("412345671", today - 400, NOW, "UTC")).toEqual([]);
    expect(data.visible("412345671", today + 1, NOW, "UTC")).toEqual([]);
    // Today is partial: at 18:00 UTC it holds less than the full generated day.
    const full = data.day("412345671", today).reduce((a, s) => a + s.sessions, 0);
    const partial = data.visible("412345671", today, NOW, "UTC").reduce((a, s) => a + s.sessions, 0);
    expect(partial).toBeLessThan(full);
    expect(partial).toBeGreaterThan(0);
  });
});
