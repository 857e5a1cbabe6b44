/**
 * One answer, several renderings, as a property over generated requests on the sandbox, through MCP: the
 * text a model reads (its rows and totals tables), the structured content, and, when the answer is capped,
 * the whole result's JSON and CSV links (read with resources/read, page by page) hold the same rows with the
 * same numbers, and those are the rows of the report read page by page with next_offset.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GoogleFixture, googleFixture } from "../../../helpers/fixtures.js";
import {
  answer,
  METRICS,
  type Request,
  type Row,
  readAll,
  report,
  requests,
  SEED,
  text,
} from "../../../helpers/ga-properties.js";
import { csvCell, expectTable, linked } from "../../../helpers/ga-renderings.js";
import { mcpSession } from "../../../helpers/mcp.js";

/** Wide, many rows (six to ten metrics, dimensions of many values, two to four ranges): some are capped and linked. */
const wide = requests({
  dimensions: ["date", "pagePath", "country", "pageTitle", "sessionSourceMedium"],
  ranges: { min: 2, max: 4 },
  minDimensions: 2,
  maxDimensions: 3,
}).chain((request) =>
  fc.uniqueArray(fc.constantFrom(...METRICS), { minLength: 6, maxLength: 10 }).map((metrics): Request => {
    const { order_by: _order, filter, ...rest } = request;
    return { ...rest, metrics, ...(filter && !/^\w+ > 3$/.test(filter) ? { filter } : {}) };
  }),
);

describe("Run Reports' renderings, generated requests", () => {
  let fixture: GoogleFixture;
  let client: Client;
  let close: () => Promise<void>;
  let linkedRuns = 0;

  beforeAll(async () => {
    fixture = await googleFixture();
    ({ client, close } = await mcpSession(fixture.workspace));
  });
  afterAll(async () => {
    await close();
    await fixture.sandbox.close();
  });

  it("the text, the structured content and the JSON and CSV links hold the same rows and numbers", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ arbitrary: requests(), weight: 1 }, { arbitrary: wide, weight: 2 }),
        async (request) => {
          const result = await report(client, { ...request, limit: 10_000 });
          const data = answer(result);
          expectTable(text(result), "rows", data.rows);
          expectTable(text(result), "totals", data.totals);
          expect(text(result).split("\n")[0]).toContain(
            `: ${data.rows.length.toLocaleString("en-US")} row${data.rows.length === 1 ? "" : "s"} of ${data.row_count.toLocaleString("en-US")}`,
          );
          const whole = (await readAll(client, request, 10_000)).rows;
          expect(whole.slice(0, data.rows.length)).toEqual(data.rows);
          const json = (await linked(client, result, "json")).flatMap((page) => JSON.parse(page) as Row[]);
          const csv = await linked(client, result, "csv");
          if (json.length === 0) {
            expect(data.next_offset).toBeUndefined();
            return;
          }
          linkedRuns += 1;
          // The whole read is linked: every row GA returned, the shown ones first.
          expect(json).toEqual(whole);
          const csvRows = csv.flatMap((page) => {
            const [header, ...lines] = parse(page) as string[][];
            return lines.map((line) =>
              Object.fromEntries((header ?? []).map((column, i) => [column, line[i]])),
            );
          });
          expect(csvRows).toHaveLength(json.length);
          csvRows.forEach((row, i) => {
            for (const [column, value] of Object.entries(row))
              expect(value, `${i}.${column}`).toBe(csvCell(json[i]?.[column]));
          });
        },
      ),
      { seed: SEED, numRuns: 16 },
    );
    // The property saw capped answers too, not only answers that fit.
    expect(linkedRuns).toBeGreaterThan(0);
  });
});
