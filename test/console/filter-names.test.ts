/**
 * A filter typed with the names the pickers show (console/src/filter-names.ts, trial C04 and C09: "Page
 * path contains /blog/" and "Lead Score > 50" were refused, only `pagePath` and `leadScore` worked)
 * becomes the step's filter with API names, which the step's own parser reads; a name no field has is
 * refused with the nearest names. Property-based (fast-check, fixed seed): a filter written with UI names
 * and the same filter written with API names read the same; a failure prints the shrunk input.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type NamedField, withApiNames } from "../../console/src/filter-names.js";
import { GA_DIALECT, parseExpression, RECORDS_DIALECT } from "../../src/tools/filter/parser.js";

const GA: NamedField[] = [
  { api: "pagePath", ui: "Page path" },
  { api: "pagePathPlusQueryString", ui: "Page path + query string" },
  { api: "country", ui: "Country" },
  { api: "countryId", ui: "Country ID" },
  { api: "sessions", ui: "Sessions" },
  { api: "sessionDefaultChannelGroup", ui: "Session default channel group" },
];
const LEADS: NamedField[] = [
  { api: "leadScore", ui: "Lead Score" },
  { api: "email", ui: "Email Address" },
  { api: "firstName", ui: "First Name" },
];
const AT = { field: "filter", hint: "" };
const filter = (typed: string, fields = GA) => {
  const words = withApiNames(typed, fields);
  return words.ok ? words.filter : words.message;
};

describe("a filter in the pickers' words", () => {
  it("takes UI names (any case) and API names, quoting bare text values", () => {
    expect(filter("Page path contains /pricing")).toBe('pagePath contains "/pricing"');
    expect(filter("Country = Germany")).toBe('country = "Germany"');
    expect(filter('country == "France" and Sessions > 10')).toBe('country == "France" and sessions > 10');
    expect(filter("page path + query string begins with /blog and not (Country ID = DE)")).toBe(
      'pagePathPlusQueryString begins_with "/blog" and not ( countryId = "DE" )',
    );
    expect(filter("Page path does not contain /admin")).toBe('not pagePath contains "/admin"');
    expect(filter("Lead Score > 50", LEADS)).toBe("leadScore > 50");
    expect(filter('Email Address ends with "@acme.com" or First Name is empty', LEADS)).toBe(
      'email ends_with "@acme.com" or firstName is empty',
    );
    for (const typed of ["Page path contains /pricing", "Country = Germany", "Page path does not contain /a"])
      expect(() => parseExpression(filter(typed), AT, GA_DIALECT)).not.toThrow();
    expect(() => parseExpression(filter("Lead Score > 50", LEADS), AT, RECORDS_DIALECT)).not.toThrow();
  });

  it("refuses a name no field has, in a person's words, with the nearest names", () => {
    const words = withApiNames("Page pth contains /pricing", GA);
    expect(words).toEqual({
      ok: false,
      unknown: "Page pth",
      nearest: ["Page path"],
      message:
        'No field is named "Page pth". Did you mean "Page path"? Start each condition with a field\'s name as the lists show it.',
    });
    expect(withApiNames("Lead Scor > 50", LEADS)).toMatchObject({
      ok: false,
      nearest: ["Lead Score"] as never,
    });
  });

  it("reads a filter written with UI names as the same filter written with API names", () => {
    const text = fc.stringMatching(/^[A-Za-z/][A-Za-z0-9/._-]{0,8}$/).filter((t) => !/^(and|or)$/i.test(t));
    const number = fc.integer({ min: 0, max: 9999 }).map(String);
    // GA compares order on numbers only; text operators take text (a number typed after them is text).
    const opValue = fc.oneof(
      fc.tuple(fc.constantFrom("==", "!="), fc.oneof(text, number)),
      fc.tuple(fc.constantFrom("contains", "begins_with", "ends_with"), fc.oneof(text, number)),
      fc.tuple(fc.constantFrom(">", "<="), number),
    );
    const condition = fc
      .record({ field: fc.constantFrom(...GA), opValue })
      .map(({ field, opValue }) => ({ field, op: opValue[0], value: opValue[1] }));
    const numeric = (c: { op: string; value: string }) => /^\d+$/.test(c.value) && !/_|contains/.test(c.op);
    fc.assert(
      fc.property(fc.array(condition, { minLength: 1, maxLength: 4 }), fc.boolean(), (conditions, or) => {
        const join = or ? " or " : " and ";
        const written = (name: (field: NamedField) => string) =>
          conditions
            .map((c) => `${name(c.field)} ${c.op} ${numeric(c) ? c.value : JSON.stringify(c.value)}`)
            .join(join);
        const byUi = withApiNames(
          written((field) => field.ui.toUpperCase()),
          GA,
        );
        const byApi = written((field) => field.api);
        expect(byUi).toEqual({ ok: true, filter: byApi });
        expect(parseExpression(byApi, AT, GA_DIALECT)).toEqual(
          parseExpression(filter(byApi), AT, GA_DIALECT),
        );
      }),
      { seed: 28, numRuns: 200 },
    );
  });
});
