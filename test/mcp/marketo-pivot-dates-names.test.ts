import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

/** Review s57: a dated :columns table's min and max beside columns of the same names. */
type Row = Record<string, unknown>;
interface Answer {
  result: Row[];
}
const mkto = seededMarketo(200);
const EMAILS = ["a1@s57.example", "a2@s57.example", "a3@s57.example", "a4@s57.example"];

describe("review s57: a dated table's min and max beside a column of the same name", () => {
  it('F8: a column whose value is "max" (or "min") keeps its counts beside the row\'s dates', async () => {
    await mkto.ok({
      method: "POST",
      endpoint: "/rest/v1/leads.json",
      body: {
        action: "createOnly",
        input: EMAILS.map((email, i) => ({ email, leadSource: i < 3 ? "max" : "min", leadStatus: "New" })),
      },
    });
    const read = (extra: Row) =>
      mkto.ok<Answer>({
        method: "GET",
        endpoint: "/rest/v1/leads.json",
        query_parameters: {
          filterType: "email",
          filterValues: EMAILS.join(","),
          fields: "id,email,leadSource,leadStatus,createdAt",
        },
        ...extra,
      });
    const plain = await read({});
    expect(plain.data.result.filter((r) => r.leadSource === "max")).toHaveLength(3);
    const table = await read({ count_by: "leadStatus,leadSource:columns", sum: "createdAt" });
    const [row] = table.data.result;
    // The cells: 3 leads of "max", 1 of "min", and the row's first and last createdAt, each in a column of its own.
    const cells = Object.values(row ?? {}).filter((v) => typeof v === "number");
    expect(cells, JSON.stringify(table.data.result)).toContain(3);
    expect(cells).toContain(1);
    expect(Object.values(row ?? {}).filter((v) => typeof v === "string" && /^\d{4}-/.test(v))).toHaveLength(
      2,
    );
  });
});
