import { describe, expect, it } from "vitest";
import { computeSpec, RecordCompute } from "../../../src/tools/records/compute.js";

/**
 * count_by through a list each record holds counts its items; a record with an empty list is no item of it (a
 * program without tokens), whatever the order the records come in; when no record's items are counted (an
 * activity without attributes counted by attributes.<name>), it counts as itself, so none is dropped.
 */
const counted = (count_by: string, records: Record<string, unknown>[]) => {
  const compute = new RecordCompute(computeSpec({ count_by }, "") ?? {});
  for (const record of records) compute.see(record);
  return compute.finish([]).map((row) => [row[count_by], row.count]);
};

describe("count_by through a list, records without items", () => {
  it("counts no record with an empty list among items, before or after records with items (review s28, finding 2)", () => {
    const token = { name: "Headline", type: "text", value: "x" };
    const records = [
      { id: 1, tokens: [] },
      { id: 2, tokens: [token, { ...token, type: "date" }] },
      { id: 3, tokens: [] },
    ];
    const rows = counted("tokens.type", records);
    expect(rows).toEqual([
      ["date", 1],
      ["text", 1],
    ]);
  });

  it("counts no record with an empty list when none has items, by an item's key (review s29, finding 5)", () => {
    const compute = new RecordCompute(computeSpec({ count_by: "costs.note", where: "id < 3" }, "") ?? {});
    for (const record of [
      { id: 1, costs: [] },
      { id: 2, costs: [] },
      { id: 3, costs: [{ note: "Venue", cost: 100 }] },
    ])
      compute.see(record);
    expect(compute.finish([])).toEqual([]);
    expect(compute.unnest.none).toBe(2);
  });

  it("drops no activity without attributes when counting by an attribute's name", () => {
    const records = [
      { id: 1, attributes: [] },
      { id: 2, attributes: [{ name: "Campaign Run ID", value: 5 }] },
    ];
    expect(counted("attributes.Campaign Run ID", records)).toEqual(
      expect.arrayContaining([
        [null, 1],
        [5, 1],
      ]),
    );
  });
});
