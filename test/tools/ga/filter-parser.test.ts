import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../../src/errors.js";
import type { FilterExpression, GaFilter, NumericValue } from "../../../src/tools/ga/filter-expression.js";
import { isFilterKeyword, parseFilter } from "../../../src/tools/ga/filter-parser.js";
import { printFilter } from "../../../src/tools/ga/filter-print.js";

const leaf = (filter: GaFilter): FilterExpression => ({ filter });

describe("parseFilter: the simple syntax", () => {
  it.each<[string, FilterExpression]>([
    [
      'country == "France"',
      leaf({ fieldName: "country", stringFilter: { matchType: "EXACT", value: "France" } }),
    ],
    [
      "sessions > 10",
      leaf({
        fieldName: "sessions",
        numericFilter: { operation: "GREATER_THAN", value: { int64Value: "10" } },
      }),
    ],
    [
      "bounceRate <= 0.25",
      leaf({
        fieldName: "bounceRate",
        numericFilter: { operation: "LESS_THAN_OR_EQUAL", value: { doubleValue: 0.25 } },
      }),
    ],
    [
      'pagePath contains "/blog"',
      leaf({ fieldName: "pagePath", stringFilter: { matchType: "CONTAINS", value: "/blog" } }),
    ],
    [
      "country in ('France', \"Germany\")",
      leaf({ fieldName: "country", inListFilter: { values: ["France", "Germany"] } }),
    ],
    [
      'eventName != "page_view"',
      {
        notExpression: leaf({
          fieldName: "eventName",
          stringFilter: { matchType: "EXACT", value: "page_view" },
        }),
      },
    ],
    [
      "sessions between 1 and 5",
      leaf({
        fieldName: "sessions",
        betweenFilter: { fromValue: { int64Value: "1" }, toValue: { int64Value: "5" } },
      }),
    ],
    ["city is not empty", { notExpression: leaf({ fieldName: "city", emptyFilter: {} }) }],
    [
      'customEvent:plan =~ "^pro"',
      leaf({ fieldName: "customEvent:plan", stringFilter: { matchType: "PARTIAL_REGEXP", value: "^pro" } }),
    ],
  ])("%s", (source, expected) => {
    expect(parseFilter(source)).toEqual(expected);
  });

  it("gives and precedence over or, and keeps parenthesized groups nested", () => {
    const a = leaf({ fieldName: "a", stringFilter: { matchType: "EXACT", value: "1" } });
    const b = leaf({ fieldName: "b", stringFilter: { matchType: "EXACT", value: "2" } });
    const c = leaf({ fieldName: "c", stringFilter: { matchType: "EXACT", value: "3" } });
    expect(parseFilter('a == "1" or b == "2" AND c == "3"')).toEqual({
      orGroup: { expressions: [a, { andGroup: { expressions: [b, c] } }] },
    });
    expect(parseFilter('not (a == "1" or b == "2") and c == "3"')).toEqual({
      andGroup: { expressions: [{ notExpression: { orGroup: { expressions: [a, b] } } }, c] },
    });
  });

  it.each([
    ["", /empty/],
    ['country == "France', /unterminated/],
    ["country France", /operator/],
    ['sessions > "10"', /compares numbers/],
    ['country == "a" and', /field name/],
    ['(country == "a"', /"\)"/],
    ["country in ()", /quoted text/],
    ["sessions > 99999999999999999999", /int64/],
    ['country == "a" country == "b"', /and, or/],
    ["country # 1", /unexpected character/],
  ])("refuses %j with a ValidationError naming the problem", (source, pattern) => {
    expect(() => parseFilter(source)).toThrow(ValidationError);
    expect(() => parseFilter(source)).toThrow(pattern);
  });

  it("refuses nesting beyond 32 levels instead of overflowing the stack", () => {
    expect(() => parseFilter(`${"(".repeat(5000)}a == "1"${")".repeat(5000)}`)).toThrow(/nests deeper/);
    expect(() => parseFilter(`${"not ".repeat(5000)}a == "1"`)).toThrow(ValidationError);
  });
});

// Random GA FilterExpression trees within what the simple syntax expresses: groups of ≥2 children,
// explicit match types, no caseSensitive flags.
const fieldName = fc
  .stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}(:[A-Za-z0-9_]{1,6})?$/)
  .filter((name) => !isFilterKeyword(name));
const text = fc.string({ unit: "binary", maxLength: 12 });
const numeric: fc.Arbitrary<NumericValue> = fc.oneof(
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((n) => ({ int64Value: n.toString() })),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => ({ doubleValue: d })),
);
const gaFilter: fc.Arbitrary<GaFilter> = fc.oneof(
  fc.record({
    fieldName,
    stringFilter: fc.record({
      matchType: fc.constantFrom(
        "EXACT",
        "BEGINS_WITH",
        "ENDS_WITH",
        "CONTAINS",
        "FULL_REGEXP",
        "PARTIAL_REGEXP",
      ),
      value: text,
    }),
  }),
  fc.record({
    fieldName,
    inListFilter: fc.record({ values: fc.array(text, { minLength: 1, maxLength: 4 }) }),
  }),
  fc.record({
    fieldName,
    numericFilter: fc.record({
      operation: fc.constantFrom(
        "EQUAL",
        "LESS_THAN",
        "LESS_THAN_OR_EQUAL",
        "GREATER_THAN",
        "GREATER_THAN_OR_EQUAL",
      ),
      value: numeric,
    }),
  }),
  fc.record({ fieldName, betweenFilter: fc.record({ fromValue: numeric, toValue: numeric }) }),
  fc.record({ fieldName, emptyFilter: fc.constant({}) }),
);
const { tree } = fc.letrec<{ tree: FilterExpression }>((tie) => ({
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    gaFilter.map((filter) => ({ filter })),
    fc
      .array(tie("tree"), { minLength: 2, maxLength: 4 })
      .map((expressions) => ({ andGroup: { expressions } })),
    fc
      .array(tie("tree"), { minLength: 2, maxLength: 4 })
      .map((expressions) => ({ orGroup: { expressions } })),
    tie("tree").map((inner) => ({ notExpression: inner })),
  ),
}));

describe("parseFilter: properties", () => {
  it("parses every printed expression tree back to the same tree", () => {
    fc.assert(
      fc.property(tree, (expression) => {
        expect(parseFilter(printFilter(expression))).toEqual(expression);
      }),
      { numRuns: 400 },
    );
  });

  const vocabulary = fc.constantFrom(
    ...[
      "(",
      ")",
      ",",
      "and",
      "or",
      "not",
      "in",
      "between",
      "is",
      "empty",
      "contains",
      "matches",
      "=~",
      "==",
      "!=",
    ],
    ...[
      "<",
      ">=",
      "=",
      "country",
      "sessions",
      '"x"',
      "'y'",
      '"\\q"',
      "5",
      "-1.5e3",
      "1e999",
      "\\",
      "\n",
      "é",
    ],
  );

  it("fails on any garbage with a ValidationError only", () => {
    const garbage = fc.oneof(
      fc.string({ unit: "binary", maxLength: 60 }),
      fc.array(vocabulary, { maxLength: 14 }).map((tokens) => tokens.join(" ")),
      fc.array(vocabulary, { maxLength: 14 }).map((tokens) => tokens.join("")),
    );
    fc.assert(
      fc.property(garbage, (source) => {
        try {
          parseFilter(source);
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
          expect((error as ValidationError).field).toBe("filter");
        }
      }),
      { numRuns: 2000 },
    );
  });
});
