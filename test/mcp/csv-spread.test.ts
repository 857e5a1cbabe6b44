/**
 * A kept result's CSV spreads a column whose values are objects or name/value lists (a lead's joined fields, an
 * activity's attributes, the activity next pairs) into one column per key or name, "attributes.Webpage URL": trial
 * s33 N481 read 1,052,221 characters of a CSV whose rows were 70 % escaped JSON, and a person opening it in a
 * spreadsheet met the same JSON in one cell.
 *
 * The invariant, fast-check over activity types, lead fields and next through MCP on the sandbox: CSV = JSON. The
 * CSV has a row per item of the JSON, in order, and each cell is the item's value at that column: its own key, or
 * the key or name inside the object or list the column was spread from (a nested value as JSON); no value is lost.
 */
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

type Item = Record<string, unknown>;
const mkto = seededMarketo(300);
const READ = { method: "GET", endpoint: "/rest/v1/activities.json", paginate: true, max_pages: 200 };

const isPlain = (value: unknown): value is Item =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The cell a value is written as: text as is (a formula defused), numbers and booleans as written, else JSON. */
function cellOf(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string")
    return /^[=+\-@\t\r]/.test(value) && !/^-[\d.]/.test(value) ? `'${value}` : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** Every value of an item as "column" or "column.key" (an object's keys, a name/value list's names), by hand. */
function flatByHand(item: Item): Map<string, unknown> {
  const flat = new Map<string, unknown>();
  for (const [column, value] of Object.entries(item)) {
    flat.set(column, value);
    if (isPlain(value)) for (const [key, inner] of Object.entries(value)) flat.set(`${column}.${key}`, inner);
    if (Array.isArray(value) && value.every((e) => isPlain(e) && typeof e.name === "string")) {
      for (const pair of value as { name: string; value?: unknown }[])
        flat.set(`${column}.${pair.name}`, pair.value);
    }
  }
  return flat;
}

describe("a kept result's CSV: objects and name/value lists spread into columns", () => {
  it("holds every value of the JSON, each under its column, over types, lead fields and next", {
    timeout: 180_000,
  }, async () => {
    let linked = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("Visit Webpage,Fill Out Form", "Open Email,Click Email", "Change Data Value"),
        fc.constantFrom(undefined, "email,leadScore", "unsubscribed"),
        fc.boolean(),
        async (types, leadFields, paired) => {
          const answer = await mkto.ok({
            ...READ,
            query_parameters: { sinceDatetime: "2026-09-01", activityTypeIds: types },
            ...(leadFields ? { lead_fields: leadFields } : {}),
            ...(paired ? { next: `${types.split(",")[0]}:any` } : {}),
            max_items: 100_000,
          });
          const link = answer.links.find((l) => l.mimeType === "application/json")?.uri;
          if (!link) return;
          linked += 1;
          const json = JSON.parse(await mkto.whole(`${link}?page=all`)) as Item[];
          const csv = await mkto.whole(`${link.replace(/\.json$/, ".csv")}?page=all`);
          const [header = [], ...rows] = parse(csv) as string[][];
          expect(rows).toHaveLength(json.length);
          // No column is JSON of an object or list where every value is one: it is spread.
          expect(header).not.toContain("attributes");
          if (leadFields) expect(header).toContain(`lead.${leadFields.split(",")[0]}`);
          rows.forEach((row, i) => {
            const flat = flatByHand(json[i] ?? {});
            header.forEach((column, c) => {
              expect(row[c], `${column} of row ${i}`).toBe(cellOf(flat.get(column)));
            });
            // Every scalar the item holds, at any of those places, is in some column.
            for (const [column, value] of flat) {
              if (value === null || value === undefined || typeof value === "object") continue;
              const covered = header.includes(column) || header.some((h) => column.startsWith(`${h}.`));
              expect(covered, `${column} of row ${i}`).toBe(true);
            }
          });
        },
      ),
      { numRuns: 6, examples: [["Visit Webpage,Fill Out Form", "email,leadScore", true]] },
    );
    expect(linked).toBeGreaterThan(0);
  });
});
