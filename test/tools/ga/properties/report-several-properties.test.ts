/**
 * Several properties in one call, as a property over generated requests on the sandbox: for every property P
 * of the list, P's rows and totals in the joined answer (the rows tagged with P in its first column) are the
 * answer of the same request on P alone, and its row count too; in every rendering: the text a model reads,
 * the structured content, the step's result (the console's table and CSV) and, when the answer is capped,
 * the whole result's JSON and CSV links, which hold every row each property read.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RunReportsOutput } from "../../../../src/schemas/google-analytics.js";
import { runToolStep } from "../../../../src/tools/run.js";
import { gaOverMcp } from "../../../helpers/ga-mcp.js";
import {
  answer,
  METRICS,
  type Request,
  type Row,
  report,
  requests,
  SEED,
  text,
} from "../../../helpers/ga-properties.js";
import { csvCell, expectTable, linked } from "../../../helpers/ga-renderings.js";

/** The sandbox's properties: shop, lead generation, no data, media (two zones each side of UTC). */
const PROPERTIES = [
  ["Retail Web Store", "412345671"],
  ["Retail Help Center", "412345674"],
  ["Retail Staging (no data)", "412345680"],
  ["Media News Site", "423456787"],
  ["Media Video Portal", "423456789"],
] as const;

/** Two to four properties, by name or ID, in any order; or all of them. */
const list = fc.oneof(
  {
    arbitrary: fc.constant({ property: "all", named: PROPERTIES.map(([, id]) => id) as string[] }),
    weight: 1,
  },
  {
    arbitrary: fc.shuffledSubarray([...PROPERTIES], { minLength: 2, maxLength: 4 }).chain((chosen) =>
      fc
        .tuple(...chosen.map(([name, id]) => fc.constantFrom(name, id, `properties/${id}`)))
        .map((written) => ({
          property: written.join(", "),
          named: chosen.map(([, id]) => id) as string[],
        })),
    ),
    weight: 3,
  },
);

/**
 * Wide requests of many rows (six to ten metrics by three dimensions of many values, over two or four
 * weeks): one property's answer alone is capped and linked, and the joined answer more often.
 */
const wide = requests({
  dimensions: ["date", "pagePath", "pageTitle", "country", "sessionSourceMedium"],
  minDimensions: 3,
  maxDimensions: 3,
}).chain((request) =>
  fc
    .record({
      metrics: fc.uniqueArray(fc.constantFrom(...METRICS), { minLength: 6, maxLength: 10 }),
      date_ranges: fc.constantFrom("last14days", "last28days").map((preset) => [preset]),
    })
    .map((wider): Request => {
      const { order_by: _order, filter: _filter, ...rest } = request;
      return { ...rest, ...wider };
    }),
);

const label = (id: string, data: { property_name?: string }) => `${data.property_name} (properties/${id})`;
const without = (rows: readonly Row[], who: string) =>
  rows.filter((row) => row.property === who).map(({ property: _p, ...rest }) => rest);

describe("Run Reports over several properties, generated requests", () => {
  const ga = gaOverMcp();
  const seen = { linked: 0, aloneLinked: 0, failed: 0, compared: 0 };

  /** The rows a capped answer's link holds (its JSON), or, not capped, the rows it shows. */
  const kept = async (result: CallToolResult): Promise<Row[]> => {
    const pages = await linked(ga.client, result, "json");
    return pages.length > 0 ? pages.flatMap((page) => JSON.parse(page) as Row[]) : answer(result).rows;
  };

  it("each property's rows and totals are its answer alone, in the text, the JSON, the step's result and the CSV", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ arbitrary: requests(), weight: 2 }, { arbitrary: wide, weight: 1 }),
        list,
        async (request, { property, named }) => {
          const args = { ...request, property, limit: 2_000 };
          const joined = await report(ga.client, args);
          const data = answer(joined) as ReturnType<typeof answer> & RunReportsOutput;
          expectTable(text(joined), "rows", data.rows);
          expectTable(text(joined), "totals", data.totals);
          const step = await runToolStep(
            "google_analytics_run_reports",
            { ...args, account: "analyst" },
            await ga.fixture.workspace.toolContext({}),
          );
          expect((step.data as RunReportsOutput).rows).toEqual(data.rows);
          expect(data.properties?.map((p) => p.property)).toEqual(named.map((id) => `properties/${id}`));
          const keptRows = await kept(joined);
          for (const id of named) {
            const alone = await ga.call("google_analytics_run_reports", { ...args, property: id });
            const entry = data.properties?.find((p) => p.property === `properties/${id}`);
            if (alone.isError) {
              // A property that fails alone fails in the joined answer, saying the same.
              seen.failed += 1;
              expect(entry?.error).toBe(text(alone));
              continue;
            }
            const own = answer(alone);
            const who = label(id, own as { property_name?: string });
            expect(entry?.row_count, who).toBe(own.row_count);
            expect(without(data.totals, who), who).toEqual(own.totals);
            // The rows shown are the first of its own (all of them unless the joined answer was capped).
            const shown = without(data.rows, who);
            expect(shown, who).toEqual(own.rows.slice(0, shown.length));
            if (data.next_offset === undefined) expect(shown).toEqual(own.rows);
            const aloneKept = await kept(alone);
            if (aloneKept.length > own.rows.length) seen.aloneLinked += 1;
            expect(without(keptRows, who), who).toEqual(aloneKept);
            if (own.comparison) seen.compared += 1;
          }
          const csv = await linked(ga.client, joined, "csv");
          if (csv.length === 0) return;
          seen.linked += 1;
          const csvRows = csv.flatMap((page) => {
            const [header, ...lines] = parse(page) as string[][];
            expect(header?.[0]).toBe("property");
            return lines.map((line) =>
              Object.fromEntries((header ?? []).map((column, i) => [column, line[i]])),
            );
          });
          expect(csvRows).toHaveLength(keptRows.length);
          csvRows.forEach((row, i) => {
            for (const [column, value] of Object.entries(row))
              expect(value, `${i}.${column}`).toBe(csvCell(keptRows[i]?.[column]));
          });
        },
      ),
      { seed: SEED, numRuns: 20 },
    );
    console.info(`several properties: ${JSON.stringify(seen)}`);
    // The runs met capped answers and compared periods, not only small answers of one period.
    expect(seen.linked).toBeGreaterThan(0);
    expect(seen.aloneLinked).toBeGreaterThan(0);
    expect(seen.compared).toBeGreaterThan(0);
  });
});
