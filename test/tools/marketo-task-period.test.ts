/**
 * A Marketo export task's days are read in a zone the form names (src/tools/marketo/task-values.ts period;
 * newcomer trial 2026-12-02-s8, finding 5: "Created until 29 Nov" meant 23:59:59 UTC, unsaid, so a US lead
 * created on the Sunday evening was left out): UTC unless another is named, and the result says which
 * (console/src/marketo/marketo-words.ts), its times read in that zone (console/src/marketo/lead-card.ts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RunResult } from "../../console/src/api.js";
import { readableTime } from "../../console/src/marketo/lead-card.js";
import { taskHeadline } from "../../console/src/marketo/marketo-words.js";
import { ValidationError } from "../../src/errors.js";
import { period, periodFields } from "../../src/tools/marketo/task-values.js";
import { MARKETO_TASKS } from "../../src/tools/marketo/tasks.js";

const DAY_MS = 86_400_000;
const ZONES = [
  "UTC",
  "America/New_York",
  "America/Los_Angeles",
  "Europe/Paris",
  "Asia/Kolkata",
  "Australia/Sydney",
];

/** An instant's wall clock in a zone, "2026-11-29 23:59:59". */
const wall = (iso: string, zone: string) =>
  new Intl.DateTimeFormat("sv-SE", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).format(new Date(iso));

describe("an export's period", () => {
  it("is UTC's days unless a zone is named, and the form says so beside the dates", () => {
    expect(period({ from: "2026-11-23", to: "2026-11-29" })).toEqual({
      startAt: "2026-11-23T00:00:00Z",
      endAt: "2026-11-29T23:59:59Z",
    });
    const zone = periodFields().find((field) => field.name === "zone");
    expect(zone?.initial?.(new Date())).toBe("UTC");
    expect(zone?.help).toMatch(/midnight to midnight in this zone: UTC unless you name another/);
    const exportTask = MARKETO_TASKS.find((task) => task.id === "export");
    expect(exportTask?.fields.map((field) => field.name)).toContain("zone");
  });

  it("reads the days in the zone named: a New York Sunday evening is in that Sunday", () => {
    const sent = period({ from: "2026-11-23", to: "2026-11-29", zone: "America/New_York" });
    expect(sent).toEqual({ startAt: "2026-11-23T05:00:00Z", endAt: "2026-11-30T04:59:59Z" });
    const sundayEvening = Date.parse("2026-11-30T01:30:00Z"); // 20:30 on Sunday 29 Nov in New York
    expect(sundayEvening).toBeLessThanOrEqual(Date.parse(sent.endAt));
    // A day the clocks go back has 25 hours (1 Nov 2026 in New York).
    expect(period({ from: "2026-11-01", to: "2026-11-01", zone: "America/New_York" })).toEqual({
      startAt: "2026-11-01T04:00:00Z",
      endAt: "2026-11-02T04:59:59Z",
    });
  });

  it("runs from the first day's midnight to the last day's 23:59:59 on the zone's clock (fast-check)", () => {
    const day = fc.integer({ min: Date.UTC(2020, 0, 1) / DAY_MS, max: Date.UTC(2030, 11, 31) / DAY_MS });
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), day, fc.integer({ min: 0, max: 60 }), (zone, first, length) => {
        const iso = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);
        const [from, to] = [iso(first), iso(first + length)];
        const sent = period({ from, to, zone });
        expect(wall(sent.startAt, zone)).toBe(`${from} 00:00:00`);
        expect(wall(sent.endAt, zone)).toBe(`${to} 23:59:59`);
      }),
      { seed: 5, numRuns: 300 },
    );
  });

  it("refuses a zone no one has, under the zone's field", () => {
    try {
      period({ from: "2026-11-23", to: "2026-11-29", zone: "Eastern" });
      expect.unreachable();
    } catch (error) {
      expect(error instanceof ValidationError && error.field).toBe("zone");
      expect((error as Error).message).toMatch(/"Eastern" is not a time zone/);
    }
  });
});

describe("an export's result", () => {
  const result = { type: "result", data: { result: [{ id: 1 }, { id: 2 }] } } as unknown as RunResult;
  const headline = (values: Record<string, string>) => taskHeadline("export", values, {}, result, {});

  it("says the period and the zone its days were read in", () => {
    const values = { what: "leads", from: "2026-11-23", to: "2026-11-29", where: "Country = United States" };
    expect(headline({ ...values, zone: "America/New_York" })).toBe(
      "Export ready: 2 leads where Country = United States, created 23 Nov 2026 to 29 Nov 2026 (days in America/New_York).",
    );
    expect(headline({ what: "activities", from: "2026-11-29", to: "2026-11-29", zone: "" })).toBe(
      "Export ready: 2 activities, created on 29 Nov 2026 (days in UTC).",
    );
  });

  it("reads a lead's times in that zone", () => {
    expect(readableTime("2026-11-30T01:30:00Z", "America/New_York")).toBe(
      "29 Nov 2026, 20:30 America/New_York",
    );
    expect(readableTime("2026-11-30T01:30:00Z")).toBe("30 Nov 2026, 01:30 UTC");
  });
});
