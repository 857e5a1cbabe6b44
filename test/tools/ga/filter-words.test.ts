/**
 * A report's filter in a person's words, for its chart's title (console review s10, C2): fields by their UI
 * names, values unquoted, the operators as the console's Filter box reads them; GA's two filters ANDed.
 */
import { describe, expect, it } from "vitest";
import { parseFilter } from "../../../src/tools/ga/filter-parser.js";
import { reportFilterWords } from "../../../src/tools/ga/filter-print.js";

const UI: Record<string, string> = {
  deviceCategory: "Device category",
  country: "Country",
  pagePath: "Page path",
  sessions: "Sessions",
  city: "City",
};
const ui = (name: string) => UI[name] ?? name;
const words = (filter: string) => reportFilterWords({ dimensionFilter: parseFilter(filter, "filter") }, ui);

describe("a report's filter in words", () => {
  it("names each field as Google Analytics shows it, its value unquoted", () => {
    expect(words('deviceCategory == "mobile" and country == "United States"')).toBe(
      "Device category = mobile and Country = United States",
    );
  });

  it("says every kind of condition as the Filter box reads it", () => {
    expect(words('pagePath contains "/pricing" or pagePath begins_with "/blog"')).toBe(
      "Page path contains /pricing or Page path begins with /blog",
    );
    expect(words('country != "France" and not pagePath contains "x"')).toBe(
      "Country ≠ France and Page path does not contain x",
    );
    expect(words('country in ("France", "Spain")')).toBe("Country is one of France, Spain");
    expect(words('country not in ("France")')).toBe("Country is not one of France");
    expect(words("city is empty")).toBe("City is empty");
    expect(words('country == "France" and (city == "Paris" or city == "Lyon")')).toBe(
      "Country = France and (City = Paris or City = Lyon)",
    );
  });

  it("joins the dimension and the metric filters GA ANDs, and says nothing without one", () => {
    const both = reportFilterWords(
      {
        dimensionFilter: parseFilter('country == "France"', "filter"),
        metricFilter: parseFilter("sessions > 10", "filter"),
      },
      ui,
    );
    expect(both).toBe("Country = France and Sessions > 10");
    expect(reportFilterWords({}, ui)).toBeUndefined();
  });
});
