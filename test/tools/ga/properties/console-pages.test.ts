/**
 * The console's reading of a report, as a property over generated requests on the sandbox, through its own
 * API as the page calls it (console/src/useResultRows.ts): the first run, then *Load more*: the kept
 * result's pages (/console/api/results/:id/pages/:n), and past them the next run from the next offset,
 * kept after the rows already kept (`continues`). The rows so read, the last kept result's JSON and CSV
 * downloads, and the report read at once through MCP are the same rows with the same numbers.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsoleFixture, ConsolePage, startConsoleFixture } from "../../../helpers/console.js";
import { type Request, type Row, readAll, requests, SEED } from "../../../helpers/ga-properties.js";
import { mcpSession } from "../../../helpers/mcp.js";

interface Kept {
  id: string;
  items: number;
  pageItems: number[];
  continues?: string;
}
interface Run {
  type: string;
  data: { rows: Row[]; row_count: number };
  kept?: Kept;
}

describe("the console's Load more on a report, generated requests", () => {
  let fixture: ConsoleFixture;
  let page: ConsolePage;
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    fixture = await startConsoleFixture();
    page = new ConsolePage(fixture, []);
    await page.login();
    ({ client, close } = await mcpSession(fixture.workspace()));
  }, 60_000);
  afterAll(async () => {
    await close();
    await fixture.close();
  });

  const run = async (input: Record<string, unknown>, continues?: string): Promise<Run> => {
    const answer = await page.call("POST", "/console/api/steps/google_analytics_run_reports/run", {
      input,
      ...(continues ? { continues } : {}),
    });
    const last = JSON.parse(answer.text.trim().split("\n").at(-1) ?? "{}") as Run;
    expect(last.type, answer.text.slice(0, 500)).toBe("result");
    return last;
  };

  /** What the page shows after pressing Load more until it is gone. */
  async function loadAll(request: Request, limit: number): Promise<{ rows: Row[]; kept?: Kept }> {
    const input = { ...request, account: "sandbox", limit };
    let answer = await run(input);
    const rows = [...answer.data.rows];
    let kept = answer.kept;
    let start = 0;
    let own = kept ? kept.items : rows.length;
    let shown = rows.length;
    for (let presses = 0; presses < 100; presses++) {
      if (kept && shown < kept.items) {
        // The next page of the kept result, from the first item not shown.
        let first = 0;
        let n = 1;
        for (const items of kept.pageItems) {
          if (shown < first + items) break;
          first += items;
          n += 1;
        }
        const read = await page.json<{ first: number; items: Row[] }>(
          "GET",
          `/console/api/results/${kept.id}/pages/${n}`,
        );
        const more = read.items.slice(shown - read.first);
        rows.push(...more);
        shown += more.length;
        continue;
      }
      const offset = start + own;
      if (offset >= answer.data.row_count) break;
      answer = await run({ ...input, offset }, kept?.id);
      const joined = kept !== undefined && answer.kept?.continues === kept.id;
      const before = joined ? (kept?.items ?? 0) : 0;
      rows.push(...answer.data.rows);
      start = offset;
      own = answer.kept ? answer.kept.items - before : answer.data.rows.length;
      shown = before + answer.data.rows.length;
      kept = answer.kept;
    }
    return { rows, ...(kept ? { kept } : {}) };
  }

  it("Load more shows the report's rows once each, and the downloads hold them all", async () => {
    await fc.assert(
      fc.asyncProperty(requests(), fc.integer({ min: 1, max: 4 }), async (request, reads) => {
        const whole = (await readAll(client, { ...request, account: "sandbox" }, 10_000)).rows;
        const limit = Math.max(1, Math.ceil(whole.length / reads));
        const shown = await loadAll(request, limit);
        expect(shown.rows).toEqual(whole);
        if (whole.length === 0) return;
        const json = await page.call("GET", `/console/api/results/${shown.kept?.id}/download/json`);
        expect(JSON.parse(json.text)).toEqual(whole);
        const csv = await page.call("GET", `/console/api/results/${shown.kept?.id}/download/csv`);
        const [header, ...lines] = parse(csv.text) as string[][];
        expect(lines).toHaveLength(whole.length);
        lines.forEach((line, i) => {
          (header ?? []).forEach((column, j) => {
            const value = whole[i]?.[column];
            expect(line[j], `${i}.${column}`).toBe(
              value === null || value === undefined ? "" : String(value),
            );
          });
        });
      }),
      { seed: SEED, numRuns: 10 },
    );
  });
});
