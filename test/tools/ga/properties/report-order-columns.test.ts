/**
 * Every column a Run Reports answer prints is a name its order_by takes, on the same request, as a property
 * over generated requests on the sandbox, through MCP: one to four date ranges (two: merged rows, whose
 * columns are <metric>[<period>], <metric>_change, <metric>_change_pct; more: GA's dateRange column). Agent
 * trial 2026-12-03-s9, N42: "-newUsers[2026]", the answer's own column, was refused on a two-range report.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GoogleFixture, googleFixture } from "../../../helpers/fixtures.js";
import { answer, report, requests, SEED } from "../../../helpers/ga-properties.js";
import { mcpSession } from "../../../helpers/mcp.js";

describe("Run Reports' order_by, generated requests", () => {
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

  it("takes every column name the answer prints, either way round", async () => {
    const named = fc.constantFrom(undefined, "2026", "Oct, Nov");
    await fc.assert(
      fc.asyncProperty(requests({ maxDimensions: 1 }), named, async (request, name) => {
        // Some ranges named as a person names them, so their columns carry those names.
        const date_ranges = request.date_ranges.map((range, index) =>
          name && typeof range === "object" ? { ...range, name: `${name} ${index}` } : range,
        );
        const { order_by: _ignored, ...asked } = { ...request, date_ranges };
        const rows = answer(await report(client, { ...asked, limit: 3 })).rows;
        const columns = Object.keys(rows[0] ?? {});
        for (const column of columns) {
          for (const key of [column, `-${column}`])
            await report(client, { ...asked, limit: 3, order_by: key });
        }
        expect(columns.length === 0 || columns.length >= asked.metrics.length).toBe(true);
      }),
      { seed: SEED, numRuns: 20 },
    );
  });
});
