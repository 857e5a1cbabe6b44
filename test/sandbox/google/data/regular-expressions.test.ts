/**
 * The sandbox's reading of RE2 patterns (src/sandbox/google/data/regular-expressions.ts): RE2's spellings RegExp lacks
 * run as RE2 runs them, what RE2 refuses is refused in its words, and what RE2 takes but the sandbox cannot
 * run is refused as the sandbox's limit, not as the pattern's fault.
 */
import { describe, expect, it } from "vitest";
import {
  Re2Refusal,
  re2Pattern,
  SandboxLimit,
} from "../../../../src/sandbox/google/data/regular-expressions.js";

const full = (value: string, text: string) =>
  re2Pattern(value, { full: true, caseSensitive: true }).test(text);
const part = (value: string, text: string) =>
  re2Pattern(value, { full: false, caseSensitive: true }).test(text);

describe("RE2 patterns in the sandbox", () => {
  it("reads RE2's spellings RegExp lacks as RE2 does", () => {
    expect(full("(?P<step>view|cart)_item", "view_item")).toBe(true);
    expect(part("\\Aview", "view_item")).toBe(true);
    expect(part("\\Aitem", "view_item")).toBe(false);
    expect(part("view\\z", "page_view")).toBe(true);
    expect(full("\\Q/a.b?\\E", "/a.b?")).toBe(true);
    expect(full("\\Q/a.b?\\E", "/axb")).toBe(false);
    expect(full("[[:digit:]-]+", "2026-12")).toBe(true);
    expect(full("[]x]+", "]x]")).toBe(true);
    expect(full('a{,2}\\-\\"', 'a{,2}-"')).toBe(true);
    expect(full("\\pL+", "café")).toBe(true);
  });

  it("applies a leading flags group to the whole pattern; a full match stays whole under (?m)", () => {
    expect(full("(?i)(?s)DEMO.REQUEST", "demo\nrequest")).toBe(true);
    expect(full("(?m)^demo$", "x\ndemo")).toBe(false);
    expect(part("(?m)^demo$", "x\ndemo")).toBe(true);
  });

  it.each([
    ["(?=a)", "invalid perl operator: (?="],
    ["(?<!a)b", "invalid perl operator: (?<!"],
    ["(?>a)", "invalid perl operator: (?>"],
    ["(a)\\1", "invalid escape sequence: \\1"],
    ["(?<n>a)\\k<n>", "invalid escape sequence: \\k"],
    ["a\\Z", "invalid escape sequence: \\Z"],
    ["(?P=n)", "invalid named capture group: (?P=n)"],
  ])("refuses %s as RE2 does: %s", (value, words) => {
    expect(() => full(value, "")).toThrow(new Re2Refusal(words));
  });

  it.each(["a(?i)b", "(?i:a)b", "(?U)a+", "(?-i)a", "[[:^digit:]]"])(
    "refuses %s, which RE2 takes, as the sandbox's limit",
    (value) => {
      expect(() => full(value, "")).toThrow(SandboxLimit);
    },
  );
});
