/**
 * The Google card's quota line: each figure is one Google reported, said for what it is (what the last
 * report cost, what was left after it), with when; a bucket Google did not report is not shown.
 */
import { describe, expect, it } from "vitest";
import { type QuotaSeen, quotaLine } from "../../console/src/google/quota-words.js";

const when = (iso: string) => `at ${iso}`;
const seen = (quotas: QuotaSeen["quotas"], kind: QuotaSeen["kind"] = "core"): QuotaSeen => ({
  propertyId: "412345671",
  kind,
  seenAt: "2026-12-01T21:40:12.000Z",
  quotas,
});

describe("the Google card's quota line", () => {
  it("says what the last report cost and what Google then had left, not 'used' beside 'left'", () => {
    const line = quotaLine(
      seen({
        tokensPerDay: { consumed: 1, remaining: 199_990 },
        tokensPerHour: { consumed: 1, remaining: 39_990 },
      }),
      when,
    );
    expect(line).toBe(
      "Property 412345671, core reports, last report at 2026-12-01T21:40:12.000Z: the report cost 1 token; " +
        "Google then had 199,990 tokens per day and 39,990 per hour left.",
    );
    expect(line).not.toMatch(/used/);
  });

  it("shows only the buckets Google reported, a left-out figure as proto3's 0", () => {
    expect(quotaLine(seen({ tokensPerHour: { remaining: 15_000 } }, "realtime"), when)).toBe(
      "Property 412345671, realtime reports, last report at 2026-12-01T21:40:12.000Z: the report cost 0 tokens; " +
        "Google then had 15,000 tokens per hour left.",
    );
    expect(quotaLine(seen({}), when)).toBe(
      "Property 412345671, core reports, last report at 2026-12-01T21:40:12.000Z: Google reported no token figures.",
    );
  });

  it("names the property by its display name when the account's listing has it (trial s5, finding 8)", () => {
    expect(quotaLine(seen({}), when, "Retail Web Store")).toBe(
      "Retail Web Store, core reports, last report at 2026-12-01T21:40:12.000Z: Google reported no token figures.",
    );
  });

  it("says both costs when the buckets disagree", () => {
    const line = quotaLine(
      seen({ tokensPerDay: { consumed: 3, remaining: 10 }, tokensPerHour: { consumed: 2 } }),
      when,
    );
    expect(line).toContain("the report cost 3 tokens of the daily quota and 2 tokens of the hourly;");
    expect(line).toContain("Google then had 10 tokens per day and 0 per hour left.");
  });
});
