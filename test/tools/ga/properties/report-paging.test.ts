/**
 * Paging, as properties over generated requests on the sandbox, through MCP: the pages of a report, read by
 * offset and by next_offset, put together are the report read at once, row for row, with one to four date
 * ranges (two: merged rows), any filter and sort; every page says the same row_count; a two-range report's
 * summary names the same largest changes on every page.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GoogleFixture, googleFixture } from "../../../helpers/fixtures.js";
import { answer, readAll, report, requests, SEED, text } from "../../../helpers/ga-properties.js";
import { mcpSession } from "../../../helpers/mcp.js";

describe("Run Reports' pages, generated requests", () => {
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

  it("pages by offset and by next_offset put together are the report read at once", async () => {
    await fc.assert(
      fc.asyncProperty(requests(), fc.integer({ min: 1, max: 6 }), async (request, pagesWanted) => {
        const whole = await readAll(client, request, 10_000);
        const count = whole.pages[0]?.row_count ?? 0;
        expect(whole.rows).toHaveLength(count);
        // A limit giving about `pagesWanted` pages, the last one short.
        const limit = Math.max(1, Math.ceil(count / pagesWanted) - 1);
        const byNext = await readAll(client, request, limit);
        expect(byNext.rows).toEqual(whole.rows);
        for (const page of byNext.pages) expect(page.row_count).toBe(count);
        const byOffset = [];
        for (let offset = 0; offset < count; offset += limit) {
          const page = answer(await report(client, { ...request, limit, offset }));
          expect(page.rows.length).toBe(Math.min(limit, count - offset));
          byOffset.push(...page.rows);
        }
        expect(byOffset).toEqual(whole.rows);
      }),
      { seed: SEED, numRuns: 12 },
    );
  });

  it("a two-range report's largest changes are the whole report's on every page", async () => {
    await fc.assert(
      fc.asyncProperty(requests({ ranges: { min: 2, max: 2 }, maxDimensions: 1 }), async (request) => {
        const movers = async (args: Record<string, unknown>) =>
          /Largest changes in \S+(?: over all [\d,]+ rows)? \((.*)$/.exec(
            text(await report(client, args)).split("\n")[0] ?? "",
          )?.[1] ?? "none";
        const whole = await movers({ ...request, limit: 10_000 });
        expect(await movers({ ...request, limit: 1 })).toBe(whole);
        expect(await movers({ ...request, limit: 1, offset: 1 })).toBe(whole);
      }),
      { seed: SEED, numRuns: 12 },
    );
  });
});
