/**
 * A run's result as the console keeps it for a person: the whole read kept (the store MCP links to),
 * read page by page and downloaded whole; a Cancel that keeps the records read; the summary and notes
 * without the agent's paging instructions.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ConsoleFixture,
  ConsolePage,
  type RawResponse,
  startConsoleFixture,
} from "../helpers/console.js";

interface Kept {
  id: string;
  kind: string;
  items: number;
  pageItems: number[];
  columns: string[];
  nextCursor?: string;
}
type Event = Record<string, unknown> & { type: string };
type Result = Event & {
  summary: string;
  notes: string[];
  data: Record<string, unknown>;
  kept?: Kept;
  counted?: Kept;
};

const LIST = { method: "GET", endpoint: "/rest/v1/lists/1001/leads.json", paginate: true };

describe("the console's results", () => {
  let fixture: ConsoleFixture;
  const seen: RawResponse[] = [];
  let page: ConsolePage;

  beforeAll(async () => {
    fixture = await startConsoleFixture();
    page = new ConsolePage(fixture, seen);
    await page.login();
  });
  afterAll(async () => {
    await fixture.close();
  });

  const runResult = async (id: string, input: unknown) => (await page.run(id, input)).at(-1) as Result;

  it("keeps the whole read of a capped answer, pages it and downloads it whole, in the store MCP reads", async () => {
    const result = await runResult("marketo_api_call", LIST);
    expect(result.type).toBe("result");
    const shown = (result.data.result as unknown[]).length;
    const kept = result.kept as Kept;
    expect(kept.kind).toBe("records");
    expect(kept.items).toBeGreaterThan(1_000);
    expect(shown).toBeLessThan(kept.items);
    expect(kept.pageItems.reduce((a, b) => a + b, 0)).toBe(kept.items);
    // The agent's words are in the data; a person's summary and notes have none of them.
    expect(JSON.stringify(result.data.warnings)).toMatch(/next_cursor/);
    expect(result.summary).not.toMatch(/next_cursor|cursor/);
    expect(result.notes.join(" ")).not.toMatch(/next_cursor|full result linked/);
    const ids: number[] = [];
    for (let n = 1; n <= kept.pageItems.length; n++) {
      const got = await page.json<{ page: number; pages: number; first: number; items: { id: number }[] }>(
        "GET",
        `/console/api/results/${kept.id}/pages/${n}`,
      );
      expect(got.first).toBe(ids.length);
      ids.push(...got.items.map((lead) => lead.id));
    }
    expect(ids).toHaveLength(kept.items);
    expect(ids.slice(0, shown)).toEqual((result.data.result as { id: number }[]).map((lead) => lead.id));
    const json = await page.call("GET", `/console/api/results/${kept.id}/download/json`);
    expect(json.status).toBe(200);
    expect(json.headers["content-disposition"]).toBe(
      `attachment; filename="marketo_api_call-${kept.id}.json"`,
    );
    expect((JSON.parse(json.text) as { id: number }[]).map((lead) => lead.id)).toEqual(ids);
    const csv = await page.call("GET", `/console/api/results/${kept.id}/download/csv`);
    expect(csv.headers["content-type"]).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split("\r\n");
    expect(lines[0]?.split(",")).toEqual(kept.columns);
    expect(lines).toHaveLength(kept.items + 1);
    // The same result as MCP's resource link martech-steps://results/{id}.json: the workspace's store.
    const meta = await fixture.workspace().results.meta("default", kept.id);
    expect(meta).toMatchObject({ id: kept.id, items: kept.items, tool: "marketo_api_call" });
  });

  it("keeps the records counted (keep_counted) apart from the count rows, downloaded as the plain read's (review s53, 4)", async () => {
    const plain = (await runResult("marketo_api_call", LIST)).kept as Kept;
    const result = await runResult("marketo_api_call", {
      ...LIST,
      count_by: "createdAt:month",
      keep_counted: true,
    });
    const counted = result.counted as Kept;
    expect(result.kept?.kind).toBe("count rows");
    expect(counted).toMatchObject({ kind: "records", items: plain.items });
    const ids = async (kept: Kept) => {
      const json = await page.call("GET", `/console/api/results/${kept.id}/download/json`);
      return (JSON.parse(json.text) as { id: number }[]).map((lead) => lead.id);
    };
    expect(await ids(counted)).toEqual(await ids(plain));
    // Without keep_counted, none.
    const alone = await runResult("marketo_api_call", { ...LIST, count_by: "createdAt:month" });
    expect(alone.counted).toBeUndefined();
  });

  it("keeps a count that fitted as count rows, a pivot's CSV in the answer's column order (review s54, C1, P3)", async () => {
    const result = await runResult("marketo_api_call", {
      ...LIST,
      query_parameters: { fields: "id,leadSource,createdAt" },
      count_by: "leadSource,createdAt:year:columns",
    });
    const kept = result.kept as Kept;
    expect(kept.kind).toBe("count rows");
    const csv = await page.call("GET", `/console/api/results/${kept.id}/download/csv`);
    const header = csv.text.split("\r\n")[0]?.split(",") ?? [];
    expect(header[0]).toBe("leadSource");
    expect(header.at(-1)).toBe("total");
    expect(header.slice(1, -1)).toEqual([...header.slice(1, -1)].sort());
    // A rate order_by asks for is kept too, after total (review s55, F1: lost from the kept table and CSV).
    const rated = await runResult("marketo_api_call", {
      ...LIST,
      query_parameters: { fields: "id,leadSource,createdAt" },
      count_by: "leadSource,createdAt:year:columns",
      order_by: "-2026%",
    });
    const ratedKept = rated.kept as Kept;
    expect(ratedKept.columns.at(-1)).toBe("2026%");
    const ratedCsv = await page.call("GET", `/console/api/results/${ratedKept.id}/download/csv`);
    expect(ratedCsv.text.split("\r\n")[0]?.split(",").slice(-2)).toEqual(["total", "2026%"]);
  });

  it("keeps a result that fitted too, with where its read continues", async () => {
    const result = await runResult("marketo_api_call", {
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      query_parameters: { batchSize: 5 },
    });
    expect(result.kept).toMatchObject({ items: 5, nextCursor: result.data.next_cursor });
    expect(result.summary).toBe("GET /rest/v1/lists/1001/leads.json: 5 records read in 1 page, 1 call.");
  });

  it("keeps a read that continues a kept result after that result's items, and alone otherwise", async () => {
    const first = await runResult("marketo_api_call", {
      ...LIST,
      paginate: false,
      query_parameters: { batchSize: 5 },
    });
    const kept = first.kept as Kept;
    const next = {
      ...LIST,
      paginate: false,
      query_parameters: { batchSize: 5 },
      cursor: first.data.next_cursor,
    };
    const answer = await page.call("POST", "/console/api/steps/marketo_api_call/run", {
      input: next,
      continues: kept.id,
    });
    const joined = JSON.parse(answer.text.trim().split("\n").at(-1) ?? "{}") as Result;
    expect(joined.kept).toMatchObject({ items: 10, continues: kept.id });
    const json = await page.call("GET", `/console/api/results/${joined.kept?.id}/download/json`);
    const ids = (JSON.parse(json.text) as { id: number }[]).map((lead) => lead.id);
    expect(ids.slice(0, 5)).toEqual((first.data.result as { id: number }[]).map((lead) => lead.id));
    expect(ids.slice(5)).toEqual((joined.data.result as { id: number }[]).map((lead) => lead.id));
    // An unknown id, or no result id at all, is not continued: the read is kept alone.
    for (const continues of ["AAAAAAAAAAAAAAAAAAAAAA", "not an id"]) {
      const alone = await page.call("POST", "/console/api/steps/marketo_api_call/run", {
        input: next,
        continues,
      });
      const last = JSON.parse(alone.text.trim().split("\n").at(-1) ?? "{}") as Result;
      expect(last.kept?.items).toBe(5);
      expect(last.kept).not.toHaveProperty("continues");
    }
  });

  it("answers a result of another workspace, or an unknown one, as gone; a page past the end as missing", async () => {
    const result = await runResult("marketo_api_call", LIST);
    const kept = result.kept as Kept;
    const other = fixture.workspace("other");
    expect(await other.results.meta("other", kept.id)).toBeUndefined();
    const unknown = await page.call("GET", "/console/api/results/AAAAAAAAAAAAAAAAAAAAAA/download/csv");
    expect(unknown.status).toBe(404);
    expect(unknown.text).toMatch(
      /^This result is no longer kept: results are kept 30 minutes.*Run the step again\.$/,
    );
    const past = await page.call("GET", `/console/api/results/${kept.id}/pages/${kept.pageItems.length + 1}`);
    expect(JSON.parse(past.text).error.message).toBe(
      `The result has no page ${kept.pageItems.length + 1}: it has ${kept.pageItems.length}.`,
    );
    const bad = await page.call("GET", `/console/api/results/${kept.id}/download/xml`);
    expect(bad.status).toBe(404);
  });

  it("refuses the results API without a session, and a cancel without the CSRF token", async () => {
    const result = await runResult("marketo_api_call", LIST);
    const kept = result.kept as Kept;
    const anonymous = new ConsolePage(fixture, seen);
    const answer = await anonymous.call("GET", `/console/api/results/${kept.id}/download/json`);
    expect(answer.status).toBe(401);
    const noCsrf = await page.call("POST", "/console/api/runs/x/cancel", undefined, { "x-csrf-token": "" });
    expect(noCsrf.status).toBe(403);
  });
});

describe("a cancelled run", () => {
  let fixture: ConsoleFixture;

  beforeAll(async () => {
    // One call per 2 s: page 2 waits, and the page's Cancel arrives during the wait.
    fixture = await startConsoleFixture({
      marketoEnv: { MARKETO_CALLS_PER_WINDOW: "1", MARKETO_WINDOW_MS: "2000" },
    });
  });
  afterAll(async () => {
    await fixture.close();
  });

  it("ends 'stopped' with the records read so far kept, and only its own session may cancel it", async () => {
    const page = new ConsolePage(fixture, []);
    await page.login();
    const stranger = new ConsolePage(fixture, []);
    await stranger.login();
    const events: Event[] = [];
    const ended = streamRun(page, { ...LIST, query_parameters: { batchSize: 20 } }, async (event) => {
      events.push(event);
      if (event.type === "progress" && String(event.message).includes("Waiting")) {
        const run = String(events[0]?.run);
        const refused = await stranger.call("POST", `/console/api/runs/${run}/cancel`);
        expect(refused.status).toBe(404);
        const cancelled = await page.call("POST", `/console/api/runs/${run}/cancel`);
        expect(cancelled.status).toBe(200);
      }
    });
    await ended;
    const last = events.at(-1) as Event & { summary: string; kept: Kept };
    expect(last).toMatchObject({ type: "stopped", summary: "Stopped after 20 records." });
    expect(last.kept.items).toBe(20);
    const first = await page.json<{ items: unknown[] }>(
      "GET",
      `/console/api/results/${last.kept.id}/pages/1`,
    );
    expect(first.items).toHaveLength(20);
    // The cancel is over: the run is gone, a second cancel finds nothing.
    expect((await page.call("POST", `/console/api/runs/${String(events[0]?.run)}/cancel`)).status).toBe(404);
  });
});

/** Runs a step and hands each NDJSON event to `onEvent` as it arrives; resolves when the answer ends. */
function streamRun(
  page: ConsolePage,
  input: unknown,
  onEvent: (event: Event) => Promise<void>,
): Promise<void> {
  const url = new URL("/console/api/steps/marketo_api_call/run", page.fixture.base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: {
          host: page.host,
          cookie: page.cookie,
          origin: page.fixture.base,
          "x-csrf-token": page.csrf,
          "content-type": "application/json",
        },
      },
      (res) => {
        let buffered = "";
        const handled: Promise<void>[] = [];
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buffered += chunk;
          const lines = buffered.split("\n");
          buffered = lines.pop() ?? "";
          for (const line of lines.filter(Boolean)) handled.push(onEvent(JSON.parse(line) as Event));
        });
        res.on("end", () => Promise.all(handled).then(() => resolve(), reject));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ input }));
  });
}
