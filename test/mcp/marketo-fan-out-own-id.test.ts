import { describe, expect, it } from "vitest";
import { marketoOverMcp } from "../helpers/marketo-mcp.js";

/**
 * Trial s17, N174: two forms' fields read in one call (/rest/asset/v1/form/{id}/fields.json, query_parameters
 * id a list) came back joined with no form id, since each field has an id of its own and the tag "id" was
 * left out. Each record now keeps its own id and carries formId, the form it was read for: the joined
 * records of each form are exactly that form's single read.
 */
interface Records {
  result: Record<string, unknown>[];
}
const mkto = marketoOverMcp({});

describe("a fan-out whose records have an id of their own", () => {
  it("tags each record with the form it came from, beside its own id", async () => {
    const forms = await mkto.ok<Records>({ method: "GET", endpoint: "/rest/asset/v1/forms.json" });
    const ids = forms.data.result.slice(0, 2).map((form) => Number(form.id));
    expect(ids.length).toBe(2);
    const both = await mkto.ok<Records>({
      method: "GET",
      endpoint: "/rest/asset/v1/form/{id}/fields.json",
      query_parameters: { id: ids },
    });
    for (const id of ids) {
      const alone = await mkto.ok<Records>({
        method: "GET",
        endpoint: `/rest/asset/v1/form/${id}/fields.json`,
      });
      const tagged = both.data.result.filter((record) => record.formId === id);
      expect(tagged.map(({ formId: _form, ...record }) => record)).toEqual(alone.data.result);
      expect(alone.data.result.length).toBeGreaterThan(0);
    }
    expect(both.data.result.every((record) => typeof record.id === "string")).toBe(true);
  });
});
