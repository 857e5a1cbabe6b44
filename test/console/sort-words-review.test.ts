import { describe, expect, it } from "vitest";
import { sortInApiNames } from "../../console/src/column-names.js";
import type { NamedField } from "../../console/src/filter-names.js";

/** Review s58: the console's typed Sort by, beside order_by's new "x desc" / "x asc" (d869041c). */
const REPORT: NamedField[] = [
  { api: "screenPageViews", ui: "Views" },
  { api: "pagePath", ui: "Page path" },
];

describe("review s58: console Sort by", () => {
  it('F8: Sort by "Views desc" / "Page path asc" is taken as the step takes "screenPageViews desc"', () => {
    expect(sortInApiNames("Views desc", REPORT)).toEqual({ ok: true, value: "-screenPageViews" });
    expect(sortInApiNames("Page path asc", REPORT)).toEqual({ ok: true, value: "pagePath" });
    expect(sortInApiNames("screenPageViews desc", REPORT).ok).toBe(true);
  });
});
