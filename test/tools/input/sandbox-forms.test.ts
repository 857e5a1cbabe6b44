import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../../src/auth/credential-store.js";
import { ValidationError } from "../../../src/errors.js";
import {
  type GoogleSandbox,
  type MarketoSandbox,
  SANDBOX_GOOGLE_USER,
  sandboxEnv,
  startGoogleSandbox,
  startMarketoSandbox,
} from "../../../src/sandbox/index.js";
import { MemoryState } from "../../../src/state/memory.js";
import { runToolStep } from "../../../src/tools/run.js";
import { Workspace } from "../../../src/workspace.js";
import { mcpSession } from "../../helpers/mcp.js";

/**
 * The inputs an agent plausibly writes in Google's or the seed's spelling, end to end against the sandboxes:
 * each once ran a different report (or returned other records) than asked, with no error.
 */

const REPORT = "google_analytics_run_reports";
const PROPERTY = "412345671";
const OCTOBER = { property: PROPERTY, metrics: ["sessions"] };
// The sandbox's data for a day is fixed; its clock only bounds the 400-day window, so pin it after October.
const NOW = Date.UTC(2026, 10, 23, 12);

interface Report {
  rows: Record<string, string | number>[];
  row_count: number;
  request: Record<string, unknown>;
}
interface MarketoOut {
  result: { id: number; type?: string }[];
  warnings: string[];
  complete: boolean;
  next_offset?: number;
}

describe("other spellings of the input, against the sandboxes", () => {
  let google: GoogleSandbox;
  let marketo: MarketoSandbox;
  let workspace: Workspace;
  const run = async <T>(id: string, input: unknown): Promise<T> =>
    (await runToolStep(id, input, await workspace.toolContext({}))).data as T;

  beforeAll(async () => {
    google = await startGoogleSandbox({ now: () => NOW });
    marketo = await startMarketoSandbox();
    workspace = new Workspace({
      env: sandboxEnv({ google, marketo }),
      store: new MemoryCredentialStore(),
      state: new MemoryState(),
    });
    await workspace.accounts.importAccount({
      label: "analyst",
      refreshToken: google.issueRefreshToken(SANDBOX_GOOGLE_USER),
    });
  });

  afterAll(async () => {
    await workspace.close();
    await google.close();
    await marketo.close();
  });

  it("dateRanges:[{startDate,endDate}] reports October (16,419 sessions), not the last 7 days", async () => {
    const canonical = await run<Report>(REPORT, {
      ...OCTOBER,
      date_ranges: [{ start_date: "2026-10-01", end_date: "2026-10-31" }],
    });
    const google = await run<Report>(REPORT, {
      ...OCTOBER,
      dateRanges: [{ startDate: "2026-10-01", endDate: "2026-10-31" }],
    });
    expect(canonical.rows).toEqual([{ sessions: 16_419 }]);
    expect(google.rows).toEqual([{ sessions: 16_419 }]);
    expect(google.request.dateRanges).toEqual([{ startDate: "2026-10-01", endDate: "2026-10-31" }]);
    const lastWeek = await run<Report>(REPORT, { ...OCTOBER, date_ranges: ["last7days"] });
    expect(lastWeek.rows[0]?.sessions).not.toBe(16_419);
  });

  it("Google's whole RunReportRequest works as it is: [{name}], dimensionFilter, orderBys, limit as a string", async () => {
    const report = await run<Report>(REPORT, {
      propertyId: PROPERTY,
      dateRanges: [{ startDate: "2026-10-01", endDate: "2026-10-31" }],
      dimensions: [{ name: "country" }],
      metrics: [{ name: "sessions" }],
      dimensionFilter: {
        filter: { fieldName: "country", stringFilter: { matchType: "EXACT", value: "France" } },
      },
      orderBys: [{ metric: { metricName: "sessions" }, desc: true }],
      limit: "1000",
      returnPropertyQuota: true,
    });
    const plain = await run<Report>(REPORT, {
      property: PROPERTY,
      metrics: ["sessions"],
      dimensions: ["country"],
      date_ranges: [{ start_date: "2026-10-01", end_date: "2026-10-31" }],
      filter: 'country == "France"',
    });
    expect(report.row_count).toBe(1);
    expect(report.rows).toHaveLength(1);
    expect(report.rows[0]?.country).toBe("France");
    expect(report.rows).toEqual(plain.rows);
    expect(report.request).toMatchObject({ limit: "1000" });
  });

  it("orderBys in GA's shape sorts the rows (ascending and descending)", async () => {
    const base = {
      property: PROPERTY,
      dimensions: ["country"],
      metrics: ["sessions"],
      dateRanges: [{ startDate: "2026-10-01", endDate: "2026-10-31" }],
    };
    const sessions = (report: Report) => report.rows.map((row) => Number(row.sessions));
    const up = await run<Report>(REPORT, { ...base, orderBys: [{ metric: { metricName: "sessions" } }] });
    const down = await run<Report>(REPORT, {
      ...base,
      orderBys: [{ metric: { metricName: "sessions" }, desc: true }],
    });
    expect(up.rows.length).toBeGreaterThan(3);
    expect(sessions(up)).toEqual([...sessions(up)].sort((a, b) => a - b));
    expect(sessions(down)).toEqual([...sessions(up)].reverse());
    expect(up.request.orderBys).toEqual([{ metric: { metricName: "sessions" } }]);
  });

  it("metricFilter and dimensionFilter together keep the rows that pass both", async () => {
    const report = await run<Report>(REPORT, {
      property: PROPERTY,
      dimensions: ["country"],
      metrics: ["sessions"],
      dateRanges: [{ startDate: "2026-10-01", endDate: "2026-10-31" }],
      dimensionFilter: {
        filter: { fieldName: "country", inListFilter: { values: ["France", "Japan", "Brazil"] } },
      },
      metricFilter: {
        filter: {
          fieldName: "sessions",
          numericFilter: { operation: "GREATER_THAN", value: { int64Value: "500" } },
        },
      },
    });
    expect(report.rows.map((row) => row.country).sort()).toEqual(["France", "Japan"]);
    expect(report.request).toHaveProperty("dimensionFilter");
    expect(report.request).toHaveProperty("metricFilter");
  });

  it("an unknown field is refused, naming the nearest accepted one, and nothing is sent", async () => {
    const before = google.stats().data;
    const error = await run(REPORT, { ...OCTOBER, dateRange: ["last7days"] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("dateRange");
    expect((error as ValidationError).message).toMatch(/did you mean date_ranges\?/);
    expect(google.stats().data).toEqual(before);
  });

  it("queryParameters on the Marketo step returns the one list asked for, not all 10", async () => {
    const all = await run<MarketoOut>("marketo_api_call", { method: "GET", endpoint: "/rest/v1/lists.json" });
    expect(all.result).toHaveLength(10);
    const one = await run<MarketoOut>("marketo_api_call", {
      method: "get",
      endpoint: "/rest/v1/lists.json",
      queryParameters: { id: 1003 },
    });
    expect(one.result.map((list) => list.id)).toEqual([1003]);
  });

  it("over MCP too: the alias works, and an unknown field is an error result naming the nearest name", async () => {
    const { client, close } = await mcpSession(workspace);
    try {
      const listed = await client.callTool({
        name: "marketo_api_call",
        arguments: { method: "get", endpoint: "/rest/v1/lists.json", queryParameters: { id: 1003 } },
      });
      expect(listed.isError).toBeFalsy();
      expect((listed.structuredContent as MarketoOut).result.map((list) => list.id)).toEqual([1003]);
      const refused = await client.callTool({
        name: "marketo_api_call",
        arguments: { method: "GET", endpoint: "/rest/v1/lists.json", query_paramters: { id: 1003 } },
      });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toMatch(
        /Invalid query_paramters: unknown field; did you mean query_parameters\?/,
      );
    } finally {
      await close();
    }
  });

  it("programs.json?type=email returns only email programs, says why, and pages on Marketo's count", async () => {
    const first = await run<MarketoOut>("marketo_api_call", {
      method: "GET",
      endpoint: "/rest/asset/v1/programs.json",
      query_parameters: { type: "email" },
    });
    expect(first.result.length).toBeGreaterThan(0);
    expect(first.result.every((program) => program.type === "Email")).toBe(true);
    expect(first.warnings.join(" ")).toMatch(
      /no type parameter, so type was not sent.*20 program\(s\).*email/,
    );
    expect(first.next_offset).toBe(20);
    const all = await run<MarketoOut>("marketo_api_call", {
      method: "GET",
      endpoint: "/rest/asset/v1/programs.json",
      query_parameters: { type: "EMAIL", maxReturn: 200 },
    });
    const unfiltered = await run<MarketoOut>("marketo_api_call", {
      method: "GET",
      endpoint: "/rest/asset/v1/programs.json",
      query_parameters: { maxReturn: 200 },
    });
    expect(all.result.map((p) => p.id)).toEqual(
      unfiltered.result.filter((p) => p.type === "Email").map((p) => p.id),
    );
    const nurture = await run<MarketoOut>("marketo_api_call", {
      method: "GET",
      endpoint: "/rest/asset/v1/programs.json",
      query_parameters: { type: "nurture", maxReturn: 200 },
    });
    expect(nurture.result.length).toBeGreaterThan(0);
    expect(nurture.result.every((program) => program.type === "Engagement")).toBe(true);
  });
});
