/**
 * The numbers, as properties over generated requests on the sandbox, through MCP:
 * - a merged two-range row holds the two single-range reports' rows: each range's value (0 where GA has no
 *   row for the combination, as GA leaves out rows whose metrics are all 0), and their change; by a
 *   dimension of absolute dates, each period's row at the same position (`date[<period>]`), and no change
 *   when the periods' positions cover different days;
 * - where GA's own rules make a metric additive, the rows add up to the totals GA returns: counts of events
 *   over any dimension, sessions over a session's own attributes (a session has one source, one device);
 *   never users, which GA's schema defines as distinct users
 *   (https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema: activeUsers, totalUsers),
 *   so one user in two rows is one user in the total.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GoogleFixture, googleFixture } from "../../../helpers/fixtures.js";
import {
  DIMENSIONS,
  EVENT_COUNTS,
  type Request,
  type Row,
  readAll,
  requests,
  SEED,
  SESSION_DIMENSIONS,
} from "../../../helpers/ga-properties.js";
import { mcpSession } from "../../../helpers/mcp.js";

const key = (row: Row, dimensions: readonly string[]) =>
  JSON.stringify(dimensions.map((d) => row[d] ?? null));
/** The change as report-compare.ts states its precision: 2 decimals, or 4 significant digits under 1. */
const round = (n: number) => Number(Math.abs(n) < 1 ? n.toPrecision(4) : n.toFixed(2));

describe("Run Reports' numbers, generated requests", () => {
  let fixture: GoogleFixture;
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    fixture = await googleFixture();
    ({ client, close } = await mcpSession(fixture.workspace));
  });
  afterAll(async () => {
    await close();
    await fixture.sandbox.close();
  });

  it("a merged two-range row equals the two single-range reports' rows", async () => {
    await fc.assert(
      fc.asyncProperty(requests({ ranges: { min: 2, max: 2 }, metricFilter: false }), async (request) => {
        const merged = await readAll(client, request, 10_000);
        const labels = Object.keys(merged.rows[0] ?? {})
          .filter((column) => column.startsWith(`${request.metrics[0]}[`))
          .map((column) => column.slice(request.metrics[0]!.length + 1, -1));
        const single = await Promise.all(
          request.date_ranges.map(async (range) => {
            const { rows } = await readAll(
              client,
              { ...request, date_ranges: [range], order_by: undefined } as Request,
              10_000,
            );
            return new Map(rows.map((row) => [key(row, request.dimensions), row]));
          }),
        );
        const comparison = merged.pages[0]?.comparison;
        // A dimension of absolute dates holds each period's own value (report-pairs.ts): `date[<period>]`.
        const paired = comparison?.paired?.split(",") ?? [];
        const keyIn = (row: Row, i: number) =>
          JSON.stringify(
            request.dimensions.map((d) => (paired.includes(d) ? row[`${d}[${labels[i]}]`] : row[d]) ?? null),
          );
        const inPeriod = (row: Row, i: number) => paired.every((d) => row[`${d}[${labels[i]}]`] !== null);
        // Every single-range row is in one merged row, in its period's place.
        if (labels.length === 2) {
          single.forEach((rows, i) => {
            const covered = new Set(merged.rows.map((row) => keyIn(row, i)).filter((k) => rows.has(k)));
            expect(covered.size, labels[i]).toBe(rows.size);
          });
        } else expect(merged.rows).toHaveLength(0);
        for (const row of merged.rows) {
          for (const metric of request.metrics) {
            const values = single.map((rows, i) =>
              inPeriod(row, i) ? (rows.get(keyIn(row, i))?.[metric] ?? 0) : null,
            );
            if (labels.length === 2) {
              for (const [i, label] of labels.entries())
                expect(row[`${metric}[${label}]`], label).toBe(values[i]);
              const [from, to] = [labels.indexOf(comparison!.from), labels.indexOf(comparison!.to)];
              expect(row[`${metric}_change`]).toBe(
                comparison?.no_row_change ? null : round(Number(values[to]) - Number(values[from])),
              );
            }
          }
        }
      }),
      { seed: SEED, numRuns: 10 },
    );
  });

  const additive = fc.oneof(
    requests({ metrics: EVENT_COUNTS, dimensions: DIMENSIONS, metricFilter: false, minDimensions: 1 }),
    requests({
      metrics: ["sessions", "engagedSessions"],
      dimensions: SESSION_DIMENSIONS,
      metricFilter: false,
      minDimensions: 1,
    }),
  );

  it("additive metrics' rows add up to the totals GA returns, per date range", async () => {
    await fc.assert(
      fc.asyncProperty(additive, async (request) => {
        const { rows, pages } = await readAll(client, request, 10_000);
        const totals = pages[0]?.totals ?? [];
        const ranges = request.date_ranges.length;
        // GA sends no totals row for an empty report.
        if (rows.length === 0) return;
        for (const metric of request.metrics) {
          const sum = (values: unknown[]) => values.reduce((a: number, v) => a + Number(v ?? 0), 0);
          if (ranges === 1) {
            expect(sum(rows.map((row) => row[metric])), metric).toBe(totals[0]?.[metric]);
          } else if (ranges === 2) {
            // Merged: one totals row, a column per range.
            for (const column of Object.keys(totals[0] ?? {}).filter((c) => c.startsWith(`${metric}[`))) {
              expect(sum(rows.map((row) => row[column])), column).toBe(totals[0]?.[column]);
            }
          } else {
            for (const total of totals) {
              const own = rows.filter((row) => row.dateRange === total.dateRange);
              expect(sum(own.map((row) => row[metric])), `${metric} ${total.dateRange}`).toBe(total[metric]);
            }
          }
        }
      }),
      { seed: SEED, numRuns: 14 },
    );
  });
});
