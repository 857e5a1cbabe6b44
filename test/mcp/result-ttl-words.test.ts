import { describe, expect, it } from "vitest";
import { keptFor } from "../../src/keep-result.js";
import { resultLinks } from "../../src/mcp/result-links.js";

describe("how long results are kept, in words", () => {
  it.each([
    [1_000, "1 second"],
    [10_000, "10 seconds"],
    [29_000, "29 seconds"],
    [59_000, "59 seconds"],
    [60_000, "1 minute"],
    [30 * 60_000, "30 minutes"],
    [119 * 60_000, "119 minutes"],
    [2 * 3_600_000, "2 hours"],
    [24 * 3_600_000, "24 hours"],
    [7 * 86_400_000, "7 days"],
  ])("%i ms is %s", (ms, words) => {
    expect(keptFor(ms)).toBe(words);
  });

  it("a short TTL is never '0 minutes' in the answer's text and links", () => {
    const meta = {
      id: "AAAAAAAAAAAAAAAAAAAAAA",
      tool: "t",
      kind: "rows",
      columns: [],
      items: 3,
      pageItems: [3],
      bytes: 9,
      createdAt: 0,
      expiresAt: 0,
    };
    const { links, text } = resultLinks(meta, 20_000);
    for (const words of [text, ...links.map((link) => link.description)]) {
      expect(words).toContain("kept 20 seconds");
      expect(words).not.toMatch(/0 minutes/);
    }
  });
});
