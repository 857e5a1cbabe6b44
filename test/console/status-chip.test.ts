/** A connection card's state in one word (console/src/chip-state.ts; trial s5, finding 8). */
import { describe, expect, it } from "vitest";
import { chipState } from "../../console/src/chip-state.js";

describe("a connection card's status chip", () => {
  it("is Connected when the latest try worked, Needs attention when it failed, Not tested when none was made", () => {
    expect(chipState([undefined, { ok: true, at: 5 }])).toBe("connected");
    expect(
      chipState([
        { ok: true, at: 1 },
        { ok: false, at: 2 },
      ]),
    ).toBe("attention");
    expect(chipState([{ ok: false, at: 0 }, undefined])).toBe("attention");
    expect(chipState([undefined, undefined])).toBe("untested");
    expect(chipState([])).toBe("untested");
  });

  it("goes back to Connected when a read after a failed test works (the property list, issue 28)", () => {
    expect(
      chipState([
        { ok: false, at: 0 },
        { ok: true, at: 812.4 },
      ]),
    ).toBe("connected");
    // And back to Needs attention when a test after it fails.
    expect(
      chipState([
        { ok: false, at: 900 },
        { ok: true, at: 812.4 },
      ]),
    ).toBe("attention");
    // Two learned at once: the failure.
    expect(
      chipState([
        { ok: true, at: 3 },
        { ok: false, at: 3 },
      ]),
    ).toBe("attention");
  });
});
