/**
 * Run Reports' "Add a condition" (console/src/google/filter-condition.ts, console review s10, finding 7):
 * each operator offered for a field's kind writes a condition the Filter box reads (the same names'
 * mapping and the step's parser as a typed filter), a missing or wrong part is named, and adding
 * appends "and <condition>", bracketing a filter with an "or" so the new condition holds for all of it.
 * A value compared whole ("is", "is not") is one GA has (console review s13, finding 2).
 */
import { describe, expect, it } from "vitest";
import { withApiNames } from "../../console/src/filter-names.js";
import { conditionText, OPERATORS, withCondition } from "../../console/src/google/filter-condition.js";
import { parseFilter } from "../../src/tools/ga/filter-parser.js";

const FIELDS = [
  { api: "deviceCategory", ui: "Device category" },
  { api: "country", ui: "Country" },
  { api: "sessions", ui: "Sessions" },
];
const DEVICE = { ui: "Device category", kind: "dimension" as const };
const SESSIONS = { ui: "Sessions", kind: "metric" as const };

/** The GA filter the step sends for a text typed in the Filter box. */
const sent = (typed: string) => {
  const words = withApiNames(typed, FIELDS);
  if (!words.ok) throw new Error(words.message);
  return parseFilter(words.filter);
};
const text = (condition: ReturnType<typeof conditionText>) => {
  if (!condition.ok) throw new Error(condition.message);
  return condition.text;
};

describe("a filter condition built from lists", () => {
  it("writes each dimension operator as the Filter box reads it, the value quoted as picked", () => {
    expect(text(conditionText(DEVICE, "=", "mobile"))).toBe('Device category = "mobile"');
    expect(sent(text(conditionText(DEVICE, "=", "mobile")))).toEqual({
      filter: { fieldName: "deviceCategory", stringFilter: { matchType: "EXACT", value: "mobile" } },
    });
    expect(sent(text(conditionText(DEVICE, "!=", "mobile")))).toEqual({
      notExpression: {
        filter: { fieldName: "deviceCategory", stringFilter: { matchType: "EXACT", value: "mobile" } },
      },
    });
    const matches = { contains: "CONTAINS", "begins with": "BEGINS_WITH", "ends with": "ENDS_WITH" };
    for (const [op, matchType] of Object.entries(matches))
      expect(sent(text(conditionText(DEVICE, op, 'tab "and" let')))).toEqual({
        filter: { fieldName: "deviceCategory", stringFilter: { matchType, value: 'tab "and" let' } },
      });
    expect(sent(text(conditionText(DEVICE, "does not contain", "bot")))).toEqual({
      notExpression: {
        filter: { fieldName: "deviceCategory", stringFilter: { matchType: "CONTAINS", value: "bot" } },
      },
    });
  });

  it("writes each metric operator as a number comparison", () => {
    const operations = {
      "=": "EQUAL",
      ">": "GREATER_THAN",
      ">=": "GREATER_THAN_OR_EQUAL",
      "<": "LESS_THAN",
      "<=": "LESS_THAN_OR_EQUAL",
    };
    for (const [op, operation] of Object.entries(operations))
      expect(sent(text(conditionText(SESSIONS, op, " 10 ")))).toEqual({
        filter: { fieldName: "sessions", numericFilter: { operation, value: { int64Value: "10" } } },
      });
    expect(OPERATORS.metric.map((one) => one.op)).toEqual(["=", "!=", ">", ">=", "<", "<="]);
  });

  it("offers a dimension no number comparison and a metric no text match", () => {
    expect(OPERATORS.dimension.map((one) => one.op)).not.toContain(">");
    expect(conditionText(SESSIONS, "contains", "1")).toMatchObject({ ok: false, part: "operator" });
    expect(conditionText(DEVICE, ">", "1")).toMatchObject({ ok: false, part: "operator" });
  });

  it("names the part that is missing or wrong, and what to do", () => {
    expect(conditionText(undefined, "=", "x")).toMatchObject({ ok: false, part: "field" });
    expect(conditionText(DEVICE, "=", "  ")).toMatchObject({ ok: false, part: "value" });
    expect(conditionText(SESSIONS, ">", "1,000")).toEqual({
      ok: false,
      part: "value",
      message: "Sessions is a number: type one, e.g. 10 or 2.5, without spaces or commas.",
    });
  });

  it('appends "and <condition>", bracketing a filter with an "or" outside its quotes', () => {
    expect(withCondition(undefined, "Sessions > 10")).toBe("Sessions > 10");
    expect(withCondition("  ", "Sessions > 10")).toBe("Sessions > 10");
    expect(withCondition('Country = "France"', "Sessions > 10")).toBe('Country = "France" and Sessions > 10');
    expect(withCondition('Country = "Ivory or Gold"', "Sessions > 10")).toBe(
      'Country = "Ivory or Gold" and Sessions > 10',
    );
    const either = 'Country = "France" or Country = "Spain"';
    expect(withCondition(either, "Sessions > 10")).toBe(`(${either}) and Sessions > 10`);
    // The bracketed filter keeps the new condition over both countries.
    expect(sent(withCondition(either, "Sessions > 10"))).toHaveProperty("andGroup.expressions.0.orGroup");
  });

  it("takes a value compared whole only as one GA has, when the values listed are all of them", () => {
    const COUNTRY = { ui: "Country", kind: "dimension" as const };
    const seen = { values: ["United States", "France", "United Kingdom", "Germany"], complete: true };
    expect(text(conditionText(COUNTRY, "=", " united states ", seen))).toBe('Country = "United States"');
    expect(text(conditionText(COUNTRY, "!=", "FRANCE", seen))).toBe('Country != "France"');
    expect(conditionText(COUNTRY, "=", "united", seen)).toEqual({
      ok: false,
      part: "value",
      message:
        'Country has no value "united": did you mean United States or United Kingdom? Pick one from the ' +
        'list, or choose "contains" to match part of a name.',
    });
    expect(conditionText(COUNTRY, "!=", "Germny", seen)).toMatchObject({
      message: expect.stringMatching(/did you mean Germany\? .* choose "does not contain" to leave out/),
    });
    expect(conditionText(COUNTRY, "=", "Atlantis", seen)).toMatchObject({
      message: expect.stringMatching(/^Country has no value "Atlantis"\. Pick one from the list/),
    });
    // Part of a value: kept as typed. The most frequent values only, or none read: kept as typed.
    expect(text(conditionText(COUNTRY, "contains", "united", seen))).toBe('Country contains "united"');
    expect(text(conditionText(COUNTRY, "begins with", "Unit", seen))).toBe('Country begins with "Unit"');
    expect(text(conditionText(COUNTRY, "=", "united", { ...seen, complete: false }))).toBe(
      'Country = "united"',
    );
    expect(text(conditionText(COUNTRY, "=", "united"))).toBe('Country = "united"');
  });
});
