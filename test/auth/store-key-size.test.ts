import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseKey } from "../../src/auth/credential-store.js";

/** A refused key is described by what it holds (bytes), never by a count the accepted forms share. */
describe("MARTECH_STEPS_KEY of the wrong size", () => {
  it.each([
    [
      "33 bytes in base64 (44 characters, as the accepted form)",
      randomBytes(33).toString("base64"),
      /decodes to 33 bytes as base64/,
    ],
    ["31 bytes in base64", randomBytes(31).toString("base64"), /decodes to 31 bytes as base64/],
    ["33 bytes in base64url", randomBytes(33).toString("base64url"), /decodes to 33 bytes as base64/],
    ["33 bytes in hex", randomBytes(33).toString("hex"), /is 33 bytes in hex/],
    ["16 bytes in hex", randomBytes(16).toString("hex"), /is 16 bytes in hex/],
    [
      "hex with a character lost (63)",
      randomBytes(32).toString("hex").slice(1),
      /its 63 hex characters are an odd count \(64 make the key\)/,
    ],
    ["neither", "not a key: a sentence!", /its 22 characters are neither hex nor base64/],
  ])("%s", (_what, value, described) => {
    let message = "";
    try {
      parseKey(value);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^MARTECH_STEPS_KEY is not a 32-byte key \(/);
    expect(message).toMatch(described);
    expect(message).not.toMatch(/it has 44 characters/);
    expect(message).not.toContain(value);
  });
});
