/**
 * Create or update leads from a CSV in a marketer's words (console/src/marketo/upsert-words.ts; trial s5,
 * finding 2): the preview maps each column to a field by its display name and says which rows will be
 * skipped; the result has one row per row pasted, Marketo's codes said in words.
 */
import { describe, expect, it } from "vitest";
import type { RunResult } from "../../console/src/api.js";
import { reasonWords, upsertPreview, upsertRows } from "../../console/src/marketo/upsert-words.js";

const FIELDS = [
  { api: "email", ui: "Email Address" },
  { api: "firstName", ui: "First Name" },
];
const INPUT = {
  method: "POST",
  endpoint: "/rest/v1/leads.json",
  body: {
    action: "createOrUpdate",
    lookupField: "email",
    input: [{ email: "a@example.com", firstName: "Ann" }, { firstName: "Bo" }, { email: "c@example.com" }],
  },
};

describe("the CSV upload's words", () => {
  it("previews the columns by display name, the rows read and those skipped, and the mode", () => {
    const csv = "\uFEFF EMAIL ,first name\na@example.com,Ann\n,Bo\nc@example.com,\n";
    expect(upsertPreview(csv, INPUT, FIELDS)).toEqual({
      columns: [
        { typed: "EMAIL", field: "Email Address" },
        { typed: "first name", field: "First Name" },
      ],
      rows: 3,
      skipped: [{ row: 2, why: "no email address" }],
      mode: "Creates new leads and updates existing ones, matched on Email Address.",
    });
  });

  it("says Marketo's record codes in words", () => {
    const what = "email address";
    expect(reasonWords({ code: "1003", message: "Value for lookup field 'email' not specified" }, what)).toBe(
      "no email address",
    );
    expect(
      reasonWords({ code: "1003", message: "Invalid value for field 'leadScore' and value 'x'" }, what),
    ).toBe("the value for leadScore is not accepted");
    expect(reasonWords({ code: "1007", message: "Multiple lead match lookup criteria" }, what)).toBe(
      "several leads have this email address",
    );
    expect(reasonWords({ code: "1099", message: "Something new" }, what)).toBe("Something new");
  });

  it("gives one result row per row pasted, by the field matched on", () => {
    const result = {
      type: "result",
      summary: "",
      notes: [],
      data: {
        result: [
          { id: 7, status: "updated" },
          {
            status: "skipped",
            reasons: [{ code: "1003", message: "Value for lookup field 'email' not specified" }],
          },
          { id: 9, status: "created" },
        ],
        record_errors: [],
      },
    } as unknown as RunResult;
    expect(upsertRows(result, INPUT, FIELDS)).toEqual([
      { Row: 1, "Email Address": "a@example.com", Result: "updated", "Lead ID": 7 },
      { Row: 2, "Email Address": "", Result: "skipped: no email address", "Lead ID": "" },
      { Row: 3, "Email Address": "c@example.com", Result: "created", "Lead ID": 9 },
    ]);
  });
});
