import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ValidationError } from "../../src/errors.js";
import type { MarketoApiCallInput } from "../../src/schemas/marketo.js";
import { connectionFrom } from "../../src/tools/connection-from.js";
import { cursorOf } from "../../src/tools/marketo/position.js";
import { jsonSize } from "../../src/tools/output-cap.js";
import { runToolStep } from "../../src/tools/run.js";
import type { ToolContext } from "../../src/tools/types.js";
import { type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { contextFor, FakeGa } from "../helpers/ga-fake-connector.js";
import { connector, identity, ORIGIN } from "../helpers/marketo-connector.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

const REPORT = "google_analytics_run_reports";

/** A report of `n` rows, each about 120 bytes of JSON: far past the 45 KB answer cap. */
function wideReport(n: number) {
  return () => ({
    dimensionHeaders: [{ name: "city" }],
    metricHeaders: [{ name: "activeUsers", type: "TYPE_INTEGER" as const }],
    rows: Array.from({ length: n }, (_, i) => ({
      dimensionValues: [{ value: `City number ${i} ${"x".repeat(80)}` }],
      metricValues: [{ value: String(n - i) }],
    })),
    rowCount: n,
  });
}

describe("Run Reports: positions a client can use", () => {
  it("gives no next_offset for a capped realtime report (realtime reports refuse offset)", async () => {
    const ga = new FakeGa();
    ga.metadata = { ...ga.metadata, dimensions: [...(ga.metadata.dimensions ?? []), { apiName: "city" }] };
    ga.onRealtime = wideReport(2_000);
    const args = {
      property: "123",
      metrics: ["activeUsers"],
      dimensions: ["city"],
      realtime: true,
      limit: 2_000,
    };
    const result = await runToolStep(REPORT, args, contextFor(ga));
    const data = result.data as { rows: unknown[]; next_offset?: number; hints: string[] };
    expect(data.rows.length).toBeLessThan(2_000);
    // Following the advice must work: realtime + offset is refused, so none may be offered.
    expect(data.next_offset).toBeUndefined();
    expect(data.hints.join(" ")).not.toMatch(/offset \d/);
    expect(data.hints.join(" ")).toMatch(/realtime/i);
  });

  it("keeps at most fullResults.maxBytes of rows and says where the rest continues", async () => {
    const ga = new FakeGa();
    ga.metadata = { ...ga.metadata, dimensions: [...(ga.metadata.dimensions ?? []), { apiName: "city" }] };
    ga.onRunReport = wideReport(5_000);
    const context: ToolContext = { ...contextFor(ga), fullResults: { maxBytes: 100_000 } };
    const args = { property: "123", metrics: ["activeUsers"], dimensions: ["city"], limit: 5_000 };
    const result = await runToolStep(REPORT, args, context);
    expect(result.full).toBeDefined();
    expect(jsonSize(result.full?.items)).toBeLessThanOrEqual(100_000);
    const kept = result.full?.items.length ?? 0;
    const hints = (result.data as { hints: string[] }).hints.join(" ");
    expect(hints).toContain(`continue with offset ${kept}`);
  });
});

describe("Google API Call: kept items within fullResults.maxBytes", () => {
  it("keeps no more of a huge list than the setting allows", async () => {
    const ga = new FakeGa();
    const items = Array.from({ length: 3_000 }, (_, i) => ({
      name: `properties/${i}`,
      note: "y".repeat(100),
    }));
    ga.onCall = () => ({ api: "admin", body: { properties: items } });
    const context: ToolContext = { ...contextFor(ga), fullResults: { maxBytes: 50_000 } };
    const result = await runToolStep(
      "google_analytics_api_call",
      { method: "GET", endpoint: "/v1beta/properties", query_parameters: { filter: "parent:accounts/1" } },
      context,
    );
    expect(result.full).toBeDefined();
    expect(jsonSize(result.full?.items)).toBeLessThanOrEqual(50_000);
  });
});

describe("kept results: page numbers", () => {
  let fixture: MarketoFixture;
  let session: McpSession;
  let uri: string;

  beforeAll(async () => {
    fixture = await marketoFixture();
    session = await mcpSession(fixture.workspace);
    const result = (await session.client.callTool({
      name: "marketo_api_call",
      arguments: { method: "GET", endpoint: "/rest/v1/lists/1001/leads.json", paginate: true },
    })) as CallToolResult;
    uri = (result.content.find((block) => block.type === "resource_link") as { uri: string }).uri;
  });
  afterAll(async () => {
    await session.close();
    await fixture.close();
  });

  it.each(["abc", "0", "-1", "1.5", "0x2", "", "2e0"])(
    "refuses ?page=%s naming page and what it accepts, not as a missing result",
    async (page) => {
      const error = await session.client.readResource({ uri: `${uri}?page=${page}` }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).not.toMatch(/No kept result/);
      expect((error as Error).message).toMatch(/page/);
      expect((error as Error).message).toMatch(/whole number/);
    },
  );

  it("still reads ?page=2", async () => {
    const { contents } = await session.client.readResource({ uri: `${uri}?page=2` });
    expect(contents[0]?._meta?.["martech-steps/page"]).toMatchObject({ page: 2 });
  });
});

const FILE = "/bulk/v1/leads/export/ce45a7a1-f19d-4ce2-882c-a3c795940a7d/file.json";

function marketoContext(): ToolContext {
  const marketo = connector();
  return {
    connection: connectionFrom({ marketo: async () => marketo }),
    progress: () => undefined,
  };
}

const forged = (args: Record<string, unknown>, position: Parameters<typeof cursorOf>[1]) =>
  cursorOf(args as unknown as MarketoApiCallInput, position);

describe("forged Marketo cursors are refused as cursor errors, before anything is sent", () => {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());

  it.each([
    ["a header longer than the position it precedes", { byte: 5, row: 0, header: 10_000_000 }],
    ["a header past any real header line", { byte: 50_000_000, row: 9, header: 40_000_000 }],
  ])("refuses a file cursor with %s", async (_name, file) => {
    const args = { method: "GET", endpoint: FILE };
    const error = await runToolStep(
      "marketo_api_call",
      { ...args, cursor: forged(args, { file }) },
      marketoContext(),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("cursor");
  });

  it("refuses a file cursor whose header length does not end a line of the file", async () => {
    identity();
    const content = Buffer.from("id,email\n1,a@example.com\n2,b@example.com\n", "utf8");
    nock(ORIGIN)
      .get(FILE)
      .times(5)
      .reply(function reply() {
        const [, start, end] = /bytes=(\d+)-(\d+)/.exec(String(this.req.headers.range)) ?? [];
        const s = Number(start);
        const e = Math.min(Number(end), content.length - 1);
        return [206, content.subarray(s, e + 1), { "Content-Range": `bytes ${s}-${e}/${content.length}` }];
      });
    const args = { method: "GET", endpoint: FILE };
    // The real header is 9 bytes long ("id,email\n"); a cursor that says 4 would name the columns "id" and "em".
    const cursor = forged(args, { file: { byte: 25, row: 1, header: 4 } });
    const error = await runToolStep("marketo_api_call", { ...args, cursor }, marketoContext()).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("cursor");
  });

  it("refuses a token position with control characters (it would be sent to Marketo)", async () => {
    const args = { method: "GET", endpoint: "/rest/v1/lists/1001/leads.json" };
    const cursor = forged(args, { page: { nextPageToken: "abc\u0000def\r\nX" } });
    const error = await runToolStep("marketo_api_call", { ...args, cursor }, marketoContext()).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("cursor");
  });
});

describe("Marketo errors[] with many entries", () => {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  const many = (n: number, at?: { index: number; code: string }) => ({
    requestId: "e#1",
    success: false,
    errors: Array.from({ length: n }, (_, i) =>
      at && i === at.index
        ? { code: at.code, message: "Too many requests" }
        : { code: "1006", message: `Field 'f${i}' not found` },
    ),
  });

  it("acts on a 606 even when it is past the 20th entry (the call is replayed, not failed)", async () => {
    identity();
    nock(ORIGIN)
      .get("/rest/v1/leads.json")
      .query(true)
      .reply(200, many(30, { index: 25, code: "606" }));
    nock(ORIGIN)
      .get("/rest/v1/leads.json")
      .query(true)
      .reply(200, { requestId: "ok#1", success: true, result: [{ id: 1 }] });
    const page = await connector().request({
      method: "GET",
      path: "/rest/v1/leads.json",
      query: { filterType: "id", filterValues: "1" },
    });
    expect(page.result).toEqual([{ id: 1 }]);
  });

  it("says how many entries it leaves out of the message", async () => {
    identity();
    nock(ORIGIN).get("/rest/v1/leads.json").query(true).reply(200, many(45));
    const error = await connector()
      .request({ method: "GET", path: "/rest/v1/leads.json", query: { filterType: "id", filterValues: "1" } })
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("f0");
    expect((error as Error).message).toMatch(/25 more/);
  });
});

describe("a resumed token page that holds fewer records than the cursor skips", () => {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());

  it("warns that records may have been missed (the list changed since the cursor was made)", async () => {
    identity();
    nock(ORIGIN)
      .get("/rest/v1/lists/1001/leads.json")
      .query({ nextPageToken: "T1" })
      .reply(200, { requestId: "r#1", success: true, result: [{ id: 1 }, { id: 2 }], nextPageToken: "T2" });
    const result = await connector().call({
      method: "GET",
      path: "/rest/v1/lists/1001/leads.json",
      resume: { nextPageToken: "T1", skip: 5 },
    });
    expect(result.result).toEqual([]);
    expect(result.warnings.join(" ")).toMatch(/changed/);
  });
});

describe("an export file server that answers another range than asked", () => {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  const content = Buffer.from(
    `id,email\n${Array.from({ length: 50 }, (_, i) => `${i},lead${i}@example.com`).join("\n")}\n`,
  );

  it("refuses a 206 that starts after the byte asked (records would be cut and glued wrongly)", async () => {
    identity();
    nock(ORIGIN)
      .get(FILE)
      .times(20)
      .reply(function reply() {
        const [, start, end] = /bytes=(\d+)-(\d+)/.exec(String(this.req.headers.range)) ?? [];
        // Skips 7 bytes past where it was asked to start.
        const s = Math.min(Number(start) + (Number(start) > 0 ? 7 : 0), content.length - 1);
        const e = Math.min(Number(end), content.length - 1);
        return [206, content.subarray(s, e + 1), { "Content-Range": `bytes ${s}-${e}/${content.length}` }];
      });
    const error = await connector()
      .readExportFile({ path: FILE }, { maxBytes: 1_000_000, chunkBytes: 100 })
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/range/i);
  });

  it("stops on an empty 206 before the end instead of asking again until the deadline", async () => {
    identity();
    let asked = 0;
    nock(ORIGIN)
      .get(FILE)
      .times(1_000)
      .reply(function reply() {
        asked += 1;
        const [, start] = /bytes=(\d+)-(\d+)/.exec(String(this.req.headers.range)) ?? [];
        const s = Number(start);
        if (s === 0)
          return [206, content.subarray(0, 100), { "Content-Range": `bytes 0-99/${content.length}` }];
        return [206, Buffer.alloc(0), { "Content-Range": `bytes ${s}-${s}/${content.length}` }];
      });
    const error = await connector({ dailyQuota: 500 })
      .readExportFile({ path: FILE }, { maxBytes: 1_000_000, chunkBytes: 100 })
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect(asked).toBeLessThan(5);
  });
});

describe("Google API Call: a cursor the response no longer matches", () => {
  it("warns instead of silently starting over or answering an empty list", async () => {
    const ga = new FakeGa();
    const args = { method: "GET", endpoint: "/v1beta/accountSummaries" };
    const fingerprintOf = async () => {
      ga.onCall = () => ({
        api: "admin",
        body: {
          accountSummaries: Array.from({ length: 2_000 }, (_, i) => ({
            name: `accountSummaries/${i}`,
            pad: "z".repeat(60),
          })),
        },
      });
      const first = await runToolStep("google_analytics_api_call", args, contextFor(ga));
      return (first.data as { next_cursor: string }).next_cursor;
    };
    const cursor = await fingerprintOf();
    // The same request now returns a shorter list than the items already shown.
    ga.onCall = () => ({ api: "admin", body: { accountSummaries: [{ name: "accountSummaries/1" }] } });
    const again = await runToolStep("google_analytics_api_call", { ...args, cursor }, contextFor(ga));
    expect((again.data as { warnings: string[] }).warnings.join(" ")).toMatch(/changed/);
  });
});
