/**
 * The CSV's spread columns (results/pages.ts csvColumns): objects and name/value lists become a column per key or
 * name; a column of mixed values, or of more than 100 names, stays JSON; a spread name that is a column already is
 * not repeated; a key is read as the item's own (never an inherited property such as "constructor").
 */
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { keepResult } from "../../src/keep-result.js";
import { processRedactor } from "../../src/redact.js";
import { csvColumns, csvPage } from "../../src/results/pages.js";
import type { ResultMeta } from "../../src/results/types.js";
import type { FullResult } from "../../src/tools/types.js";
import type { Workspace } from "../../src/workspace.js";

const csv = (items: unknown[], columns: string[]) => {
  const spread = csvColumns(items, columns) ?? columns;
  return parse(csvPage(JSON.stringify(items), spread, true)) as string[][];
};

describe("csvColumns", () => {
  it("spreads objects and name/value lists, and leaves other columns as they are", () => {
    const items = [
      { id: 1, lead: { email: "a@x.com", score: 5 }, attributes: [{ name: "Webpage URL", value: "/a" }] },
      { id: 2, lead: { email: "b@x.com" }, attributes: [] },
      { id: 3, lead: null, attributes: [{ name: "Client IP Address", value: "10.0.0.1" }] },
    ];
    expect(csv(items, ["id", "lead", "attributes"])).toEqual([
      ["id", "lead.email", "lead.score", "attributes.Webpage URL", "attributes.Client IP Address"],
      ["1", "a@x.com", "5", "/a", ""],
      ["2", "b@x.com", "", "", ""],
      ["3", "", "", "", "10.0.0.1"],
    ]);
  });

  it("keeps a column of mixed values, or of more than 100 names, as JSON cells", () => {
    const mixed = [{ v: { a: 1 } }, { v: "text" }];
    expect(csvColumns(mixed, ["v"])).toBeUndefined();
    const wide = [{ v: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i])) }];
    expect(csvColumns(wide, ["v"])).toBeUndefined();
    expect(csv(mixed, ["v"])).toEqual([["v"], ['{"a":1}'], ["text"]]);
  });

  it("does not repeat a spread name that is a column already, and reads own keys only", () => {
    const rows = [
      { "lead.leadSource": "Web", records: 2, lead: { leadSource: "Web", email: "a@x.com" } },
      { records: 1, lead: { leadSource: "Trade Show", email: "b@x.com" } },
    ];
    const columns = ["lead.leadSource", "records", "lead"];
    expect(csvColumns(rows, columns)).toEqual(["lead.leadSource", "records", "lead.email"]);
    expect(csv(rows, columns)).toEqual([
      ["lead.leadSource", "records", "lead.email"],
      ["Web", "2", "a@x.com"],
      ["Trade Show", "1", "b@x.com"],
    ]);
    expect(csv([{ constructor: "x" }, { id: 1 }], ["constructor", "id"])).toEqual([
      ["constructor", "id"],
      ["x", ""],
      ["", "1"],
    ]);
  });
});

describe("csvColumns: lists that are not name/value lists, and names that are secrets", () => {
  it("keeps a list of names alone, or with a name twice, as one JSON column (review s40, 1)", () => {
    const headers = [{ dimensionHeaders: [{ name: "country" }, { name: "date" }] }];
    expect(csvColumns(headers, ["dimensionHeaders"])).toBeUndefined();
    const twice = [
      {
        a: [
          { name: "x", value: 1 },
          { name: "x", value: 2 },
        ],
      },
    ];
    expect(csvColumns(twice, ["a"])).toBeUndefined();
    expect(csv(headers, ["dimensionHeaders"])[1]).toEqual(['[{"name":"country"},{"name":"date"}]']);
  });

  it("withholds a secret that is a key from the kept result's column names (review s40, 2)", async () => {
    const secret = "sk-live-csv-header-secret-0123456789";
    processRedactor.add(secret);
    const workspace = {
      name: "w",
      results: { put: async (_: string, result: { meta: ResultMeta }) => result.meta },
    } as unknown as Workspace;
    const meta = await keepResult(workspace, "t", {
      kind: "records",
      items: [{ id: 1, lead: { [secret]: "x", email: "a@x.com" } }],
    } as FullResult);
    expect(JSON.stringify(meta)).not.toContain(secret);
    expect(meta.csvColumns).toContain("lead.email");
  });
});
