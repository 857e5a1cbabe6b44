import { describe, expect, it } from "vitest";
import { ValidationError } from "../../../src/errors.js";
import { FieldCatalog } from "../../../src/tools/ga/field-catalog.js";
import { checkFilterExpression } from "../../../src/tools/ga/filter-expression.js";
import { parseFilter } from "../../../src/tools/ga/filter-parser.js";
import { filterNameProblems, splitFilter } from "../../../src/tools/ga/filter-split.js";
import { STANDARD_METADATA } from "../../helpers/ga-fake-connector.js";

const catalog = new FieldCatalog(STANDARD_METADATA);
const split = (source: string) => splitFilter(parseFilter(source), catalog);

describe("splitFilter", () => {
  it("sends a pure dimension or metric expression to its own filter", () => {
    expect(split('country == "France" or city == "Paris"')).toEqual({
      dimensionFilter: parseFilter('country == "France" or city == "Paris"'),
    });
    expect(split("sessions > 10")).toEqual({ metricFilter: parseFilter("sessions > 10") });
  });

  it("splits an and that mixes both kinds, flattening nested mixed ands", () => {
    const result = split(
      'country == "France" and (sessions > 10 and pagePath contains "/blog") and not activeUsers < 2',
    );
    expect(result.dimensionFilter).toEqual({
      andGroup: {
        expressions: [parseFilter('country == "France"'), parseFilter('pagePath contains "/blog"')],
      },
    });
    expect(result.metricFilter).toEqual({
      andGroup: { expressions: [parseFilter("sessions > 10"), parseFilter("not activeUsers < 2")] },
    });
  });

  it("refuses a mixed or / not with the reason and what to do instead", () => {
    const refuse = (source: string) => {
      try {
        split(source);
      } catch (error) {
        return error as ValidationError;
      }
      throw new Error("expected a refusal");
    };
    const or = refuse('country == "France" or sessions > 100');
    expect(or).toBeInstanceOf(ValidationError);
    expect(or.message).toMatch(/dimensions \(country\) and metrics \(sessions\) under "or"/);
    expect(or.message).toMatch(/one report per alternative/);
    expect(refuse('city == "x" and not (country == "France" and sessions > 1)').message).toMatch(
      /under "not"/,
    );
  });

  it("reports unknown filter fields with did-you-mean, and accepts custom dimensions", () => {
    expect(
      filterNameProblems(parseFilter('contry == "France" and customEvent:plan == "pro"'), catalog),
    ).toEqual([
      {
        field: "filter",
        message: expect.stringMatching(/"contry" is not a dimension or metric.*did you mean "country"/),
        offered: true,
      },
    ]);
  });
});

describe("FieldCatalog", () => {
  it("ranks suggestions by edit distance, ignoring case, within a third of the name's length", () => {
    expect(catalog.suggest("SESSIONS", "metric")[0]).toBe("sessions");
    expect(catalog.suggest("sesions", "metric")[0]).toBe("sessions");
    expect(catalog.suggest("contry")).toEqual(["country"]);
    // "ciyt" is two edits from "city" (a transposition is two): the floor of two edits still admits it.
    expect(catalog.suggest("ciyt", "dimension")).toContain("city");
    expect(catalog.suggest("abc", "metric")).toEqual([]);
  });

  it("suggests the closest names of the expected kind, and names the other kind", () => {
    expect(catalog.problem("sesions", "metric", "metrics[0]")?.message).toMatch(/did you mean "sessions"\?/);
    expect(catalog.problem("activeuser", "metric", "metrics[0]")?.message).toMatch(/"activeUsers"/);
    expect(catalog.problem("country", "metric", "metrics[1]")?.message).toMatch(
      /is a dimension, not a metric: put it in dimensions/,
    );
    expect(catalog.problem("zzzzzzzz", "metric", "metrics[0]")?.message).not.toMatch(/did you mean/);
    expect(catalog.problem("sessions", "metric", "metrics[0]")).toBeUndefined();
  });

  it("accepts GA's deprecated names and remembers the current one", () => {
    expect(catalog.problem("conversions", "metric", "metrics[0]")).toBeUndefined();
    expect(catalog.get("conversions")).toMatchObject({ apiName: "keyEvents", deprecated: true });
  });
});

describe("checkFilterExpression (raw GA objects)", () => {
  it("accepts a valid FilterExpression", () => {
    const raw = {
      orGroup: { expressions: [{ filter: { fieldName: "country", inListFilter: { values: ["FR"] } } }] },
    };
    expect(checkFilterExpression(raw)).toEqual(raw);
  });

  it.each([
    [{ filter: { fieldName: "country" } }],
    [{ filter: { fieldName: "country", stringFilter: { value: "x" }, emptyFilter: {} } }],
    [{ andGroup: { expressions: [] } }],
    [
      {
        filter: {
          fieldName: "sessions",
          numericFilter: { operation: "EQUAL", value: { int64Value: "1.5" } },
        },
      },
    ],
    [{ notExpression: { nope: 1 } }],
  ])("refuses %j with the shape GA expects", (raw) => {
    expect(() => checkFilterExpression(raw)).toThrow(/exactly one of andGroup/);
  });

  it.each([40, 20_000])(
    "refuses absurd nesting (%i levels) with a ValidationError, before validating it recursively",
    (levels) => {
      let deep: unknown = { filter: { fieldName: "a", emptyFilter: {} } };
      for (let i = 0; i < levels; i += 1) {
        deep = i % 2 ? { notExpression: deep } : { andGroup: { expressions: [{ notExpression: deep }] } };
      }
      expect(() => checkFilterExpression(deep, "dimensionFilter")).toThrow(
        /Invalid dimensionFilter: it nests deeper than 32/,
      );
    },
  );

  it("accepts 32 levels, as GA does", () => {
    let deep: unknown = { filter: { fieldName: "a", emptyFilter: {} } };
    for (let i = 1; i < 32; i += 1) deep = { notExpression: deep };
    expect(checkFilterExpression(deep)).toEqual(deep);
  });
});
