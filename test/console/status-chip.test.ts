/** A connection card's state in one word (console/src/chip-state.ts; trial s5, finding 8). */
import { describe, expect, it } from "vitest";
import { chipState } from "../../console/src/chip-state.js";

describe("a connection card's status chip", () => {
  it("is Connected when a try worked, Needs attention when one failed, Not tested when none was made", () => {
    expect(chipState([undefined, true])).toBe("connected");
    expect(chipState([true, false])).toBe("attention");
    expect(chipState([false, undefined])).toBe("attention");
    expect(chipState([undefined, undefined])).toBe("untested");
    expect(chipState([])).toBe("untested");
  });
});
