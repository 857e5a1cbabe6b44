/**
/**
 * Create or update leads from a CSV in a marketer's words (console/src/marketo/upsert-words.ts; trial s5,
 * finding 2): the preview maps each column to a field by its display name and says which rows will be
 * skipped; the result has one row per row pasted, a row with no value to match on said not sent in its place
 * (the server leaves it out of the call), Marketo's codes said in words.
 */
import { describe, expect, it } from "vitest";
import type { RunResult } from "../../console/src/api.js";
import { taskHeadline } from "../../console/src/marketo/marketo-words.js";
import { notSent, reasonWords, upsertPreview, upsertRows } from "../../console/src/marketo/upsert-words.js";

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
    // As the server builds it (src/tools/marketo/tasks.ts): the row with no email is not in the call.
    input: [{ email: "a@example.com", firstName: "Ann" }, { email: "c@example.com" }],
  },
};
const CSV = "\uFEFF EMAIL ,first name\na@example.com,Ann\n,Bo\nc@example.com,\n";

describe("the CSV upload's words", () => {
  it("previews the columns by display name, the rows read and those skipped, and the mode", () => {
    expect(upsertPreview(CSV, INPUT, FIELDS)).toEqual({
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

  const answered = (result: unknown[], recordErrors: unknown[] = []) =>
    ({
      type: "result",
      summary: "",
      notes: [],
      data: { result, record_errors: recordErrors },
    }) as unknown as RunResult;

  it("gives one result row per row pasted, by the field matched on, a row not sent in its place", () => {
    // Marketo answered the two records sent, in order.
    const result = answered([
      { id: 7, status: "updated" },
      { id: 9, status: "created" },
    ]);
    expect(upsertRows(result, INPUT, CSV, FIELDS)).toEqual([
      { Row: 1, "Email Address": "a@example.com", Result: "updated", "Lead ID": 7 },
      { Row: 2, "Email Address": "", Result: "skipped: no email address (not sent)", "Lead ID": "" },
      { Row: 3, "Email Address": "c@example.com", Result: "created", "Lead ID": 9 },
    ]);
  });

  it("says a record Marketo skipped in words, and counts it with the rows not sent in the headline", () => {
    const reasons = [{ code: "1007", message: "Multiple lead match lookup criteria" }];
    const result = answered(
      [
        { id: 7, status: "updated" },
        { status: "skipped", reasons },
      ],
      [{ code: "1007" }],
    );
    expect(upsertRows(result, INPUT, CSV, FIELDS)?.map((row) => row.Result)).toEqual([
      "updated",
      "skipped: no email address (not sent)",
      "skipped: several leads have this email address",
    ]);
    expect(notSent(CSV, INPUT, FIELDS)).toBe(1);
    const headline = (left: number) =>
      taskHeadline("upsert_leads", { csv: CSV }, {}, result, INPUT, new Set(), left);
    expect(headline(notSent(CSV, INPUT, FIELDS))).toBe("Updated 1 lead; 2 rows skipped (see the table).");
  });
});
