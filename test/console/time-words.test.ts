/**
 * One style for every time the console shows, with its zone named (trial 2026-12-02-s7, finding 14: the
 * Integrations cards said "12/2/2026, 6:04:53 PM", no zone; the lead cards "27 Nov 2026, 11:07 UTC").
 */
import { describe, expect, it } from "vitest";
import { quotaLine } from "../../console/src/google/quota-words.js";
import { readableTime } from "../../console/src/marketo/lead-card.js";
import { timeWords } from "../../console/src/time-words.js";

describe("timeWords", () => {
  it("says a time as day, month, year, 24-hour clock and zone, UTC unless the data has a zone", () => {
    expect(timeWords("2026-12-02T18:04:53.120Z")).toBe("2 Dec 2026, 18:04 UTC");
    expect(timeWords(Date.UTC(2026, 11, 2, 0, 0))).toBe("2 Dec 2026, 00:00 UTC");
    expect(timeWords(new Date("2026-12-02T18:04:00Z"), "America/New_York")).toBe(
      "2 Dec 2026, 13:04 America/New_York",
    );
    expect(timeWords("not a time")).toBe("not a time");
  });

  it("is the style of the lead cards and the Google card's quota line", () => {
    expect(readableTime("2026-11-27T11:07:40Z")).toBe(timeWords("2026-11-27T11:07:40Z"));
    const seen = {
      propertyId: "1",
      kind: "core" as const,
      seenAt: "2026-12-01T21:40:12Z",
      quotas: { tokensPerHour: { consumed: 1, remaining: 39_990 } },
    };
    expect(quotaLine(seen, timeWords, "Acme Store")).toMatch(
      /^Acme Store, core reports, last report 1 Dec 2026, 21:40 UTC:/,
    );
  });
});
