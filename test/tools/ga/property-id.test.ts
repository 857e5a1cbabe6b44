import { describe, expect, it } from "vitest";
import { ValidationError } from "../../../src/errors.js";
import { parsePropertyId } from "../../../src/tools/ga/property-id.js";

describe("parsePropertyId", () => {
  it.each([
    ["123456789", "123456789"],
    [" properties/123456789 ", "123456789"],
    ["https://analytics.google.com/analytics/web/#/p415365127/reports/intelligenthome", "415365127"],
    ["https://analytics.google.com/analytics/web/#/a54516992p415365127/admin/property/settings", "415365127"],
    ["https://analytics.google.com/analytics/web/?authuser=1#/p42?params=x", "42"],
  ])("reads %s", (raw, id) => {
    expect(parsePropertyId(raw)).toBe(id);
  });

  it("refuses a G- measurement ID and says where the numeric ID is", () => {
    const error = (() => {
      try {
        parsePropertyId("G-ABC123XYZ");
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("property");
    expect((error as Error).message).toMatch(/measurement ID/);
    expect((error as Error).message).toMatch(/Admin > Property settings > Property details/);
  });

  it.each(["UA-1234567-1", "UA-99", "https://analytics.google.com/analytics/web/#/report-home/a1w2p3/"])(
    "refuses Universal Analytics id %s",
    (raw) => {
      expect(() => parsePropertyId(raw)).toThrow(/Universal Analytics.*July 2023.*Property details/s);
    },
  );

  it.each([
    "",
    "abc",
    "properties/",
    "properties/12a",
    "https://evil.example/#/p123/",
    "0",
    "properties/000",
    "-5",
  ])("refuses %j with the accepted forms", (raw) => {
    expect(() => parsePropertyId(raw)).toThrow(ValidationError);
  });
});
