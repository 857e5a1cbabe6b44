/**
 * Lists of field names typed as the pickers show them (console/src/column-names.ts; trial 2026-12-02,
 * finding 1, C04, C09, C10): Sort by "-Views" was refused for `-screenPageViews`, an export's "First Name"
 * was split into "First" and "Name", a CSV header "Email" was refused for `email`. Each now takes the UI
 * name or the API name, in any case, and refuses a name no field has with the names that exist.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvHeaderInApiNames, fieldListInApiNames, sortInApiNames } from "../../console/src/column-names.js";
import type { NamedField } from "../../console/src/filter-names.js";

const REPORT: NamedField[] = [
  { api: "screenPageViews", ui: "Views" },
  { api: "totalUsers", ui: "Total users" },
  { api: "pagePath", ui: "Page path" },
];
const LEADS: NamedField[] = [
  { api: "id", ui: "Id" },
  { api: "email", ui: "Email Address" },
  { api: "firstName", ui: "First Name" },
  { api: "lastName", ui: "Last Name" },
  { api: "company", ui: "Company Name" },
  { api: "leadScore", ui: "Lead Score" },
];

describe("Sort by in the pickers' words", () => {
  it("takes the report's columns by UI name (any case) or API name, keeping the direction", () => {
    expect(sortInApiNames("-Views", REPORT)).toEqual({ ok: true, value: "-screenPageViews" });
    expect(sortInApiNames(" - views , PAGE PATH", REPORT)).toEqual({
      ok: true,
      value: "-screenPageViews,pagePath",
    });
    expect(sortInApiNames("-totalUsers,pagePath", REPORT)).toEqual({
      ok: true,
      value: "-totalUsers,pagePath",
    });
  });

  it("refuses a name that is not a column, naming the columns as the pickers show them", () => {
    const sort = sortInApiNames("-Veiws", REPORT);
    expect(sort.ok).toBe(false);
    if (sort.ok) return;
    expect(sort.message).toContain('"Veiws" is not a column of this report. Did you mean "Views"?');
    expect(sort.message).toContain('"Views", "Total users", "Page path"');
    expect(sort.message).not.toContain("screenPageViews");
  });

  it("reads any column named either way, in any case, as that column (fast-check)", () => {
    const column = fc.constantFrom(...REPORT);
    const typed = fc.record({
      field: column,
      ui: fc.boolean(),
      upper: fc.boolean(),
      desc: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(typed, { minLength: 1, maxLength: 4 }), (items) => {
        const text = items
          .map(({ field, ui, upper, desc }) => {
            const name = ui ? field.ui : field.api;
            return `${desc ? "-" : ""}${upper ? name.toUpperCase() : name.toLowerCase()}`;
          })
          .join(", ");
        const want = items.map(({ field, desc }) => `${desc ? "-" : ""}${field.api}`).join(",");
        expect(sortInApiNames(text, REPORT)).toEqual({ ok: true, value: want });
      }),
      { seed: 28, numRuns: 200 },
    );
  });
});

describe("an export's lead fields in the names a person sees", () => {
  it("keeps a display name with a space whole, and takes API names by commas or spaces", () => {
    expect(fieldListInApiNames("First Name, Lead Score", LEADS)).toEqual({
      ok: true,
      value: ["firstName", "leadScore"],
    });
    expect(fieldListInApiNames("email address,first name;LAST NAME", LEADS)).toEqual({
      ok: true,
      value: ["email", "firstName", "lastName"],
    });
    expect(fieldListInApiNames("id, email, firstName", LEADS)).toEqual({
      ok: true,
      value: ["id", "email", "firstName"],
    });
    expect(fieldListInApiNames("id email firstName", LEADS)).toEqual({
      ok: true,
      value: ["id", "email", "firstName"],
    });
  });

  it("refuses a name no field has with the nearest fields that exist, not an API endpoint", () => {
    const list = fieldListInApiNames("First Name, Lead Scor", LEADS);
    expect(list).toEqual({ ok: false, message: 'No field is named "Lead Scor". Did you mean "Lead Score"?' });
  });
});

describe("a pasted CSV's header line in the names a person sees", () => {
  it("maps each header by display or API name, any case, trimmed; the rows stay as pasted", () => {
    const csv =
      'Email , First Name,company,"Last Name"\r\nr.mendes@example.com,Rui,"Novak & Partners",Mendes\n';
    expect(csvHeaderInApiNames(csv, LEADS)).toEqual({
      ok: true,
      value: 'email,firstName,company,lastName\r\nr.mendes@example.com,Rui,"Novak & Partners",Mendes\n',
    });
    expect(csvHeaderInApiNames("\n\nEMAIL ADDRESS\na@b.c", LEADS)).toEqual({
      ok: true,
      value: "email\na@b.c",
    });
  });

  it("names the headers no field has, with the nearest", () => {
    const csv = csvHeaderInApiNames("Email,Frist Name,Shoe size\na@b.c,A,42", LEADS);
    expect(csv).toEqual({
      ok: false,
      message:
        'The header line\'s "Frist Name" names no field. Did you mean "First Name" or "Last Name"? Nor does "Shoe size".',
    });
  });
});
