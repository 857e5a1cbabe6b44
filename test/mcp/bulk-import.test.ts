import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

/**
 * A bulk lead import run end to end through marketo_api_call over MCP, against the sandbox: the CSV
 * goes in the step's `file` (sent as multipart/form-data), the batch is polled to Complete, and its
 * failures and warnings files are read as records.
 */
describe("a bulk lead import through marketo_api_call", () => {
  let fixture: MarketoFixture;
  let session: McpSession;
  const callTool = async (args: Record<string, unknown>) =>
    (await session.client.callTool({ name: "marketo_api_call", arguments: args })) as CallToolResult;
  const call = async (args: Record<string, unknown>) => {
    const result = await callTool(args);
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return result.structuredContent as { result: Record<string, unknown>[]; calls_used: number };
  };
  const text = (result: CallToolResult) =>
    result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

  beforeAll(async () => {
    // A batch imports for 1.5 s: long enough that the first poll sees it Importing even when one call
    // takes a few hundred ms on a loaded machine (at 400 ms it was sometimes Complete by then).
    fixture = await marketoFixture({ bulkJobMs: 1_500, leadCount: 300 });
    session = await mcpSession(fixture.workspace);
  });
  afterAll(async () => {
    await session.close();
    await fixture.close();
  });

  it("imports a CSV given as text, polls the batch to Complete and reads its failures and warnings", async () => {
    const csv = [
      "email,firstName,company,favouriteColour",
      "lead9@example.com,Nine,Imported Co,",
      "mcp.import@example.com,Mia,Imported Co,teal",
      "not-an-email,Bad,Imported Co,",
    ].join("\n");
    const created = await call({
      method: "POST",
      endpoint: "/bulk/v1/leads.json",
      query_parameters: { format: "csv", listId: 1010 },
      file: csv,
    });
    expect(created.result[0]).toMatchObject({ status: "Queued" });
    const batchId = created.result[0]?.batchId as number;
    let status: Record<string, unknown> = {};
    const seen = new Set<string>();
    for (let poll = 0; poll < 1_000 && status.status !== "Complete"; poll += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      status =
        (await call({ method: "GET", endpoint: `/bulk/v1/leads/batch/${batchId}.json` })).result[0] ?? {};
      seen.add(status.status as string);
    }
    expect(seen.has("Importing")).toBe(true);
    expect(status).toMatchObject({
      status: "Complete",
      numOfLeadsProcessed: 2,
      numOfRowsFailed: 1,
      numOfRowsWithWarning: 1,
    });
    const lead = await call({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: {
        filterType: "email",
        filterValues: "mcp.import@example.com",
        fields: "firstName,company",
      },
    });
    expect(lead.result[0]).toMatchObject({ firstName: "Mia", company: "Imported Co" });
    const members = await call({ method: "GET", endpoint: "/rest/v1/lists/1010/leads.json" });
    expect(members.result.map((m) => m.id)).toContain(9);

    const failures = await callTool({
      method: "GET",
      endpoint: `/bulk/v1/leads/batch/${batchId}/failures.json`,
    });
    expect(failures.structuredContent).toMatchObject({
      result: [
        {
          email: "not-an-email",
          firstName: "Bad",
          "Import Failure Reason": "Invalid value for field 'email' and value 'not-an-email'",
        },
      ],
      complete: true,
    });
    expect(text(failures)).toContain("rows 1–1 of the failures file");
    const warnings = await call({ method: "GET", endpoint: `/bulk/v1/leads/batch/${batchId}/warnings.json` });
    expect(warnings.result).toEqual([
      {
        email: "mcp.import@example.com",
        firstName: "Mia",
        company: "Imported Co",
        favouriteColour: "teal",
        "Import Warning Reason": "Field 'favouriteColour' not found",
      },
    ]);
  });

  it("reads a failures file with where and count_by, its column names as the file has them", async () => {
    const rows = Array.from({ length: 30 }, (_, n) =>
      n % 3 === 0 ? `where.ok${n}@example.com,Fine` : `bad-${n % 2 === 0 ? "even" : "odd"}-${n},Bad`,
    );
    const created = await call({
      method: "POST",
      endpoint: "/bulk/v1/leads.json",
      query_parameters: { format: "csv" },
      file: ["email,firstName", ...rows].join("\n"),
    });
    const batchId = created.result[0]?.batchId as number;
    let status: Record<string, unknown> = {};
    for (let poll = 0; poll < 1_000 && status.status !== "Complete"; poll += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status =
        (await call({ method: "GET", endpoint: `/bulk/v1/leads/batch/${batchId}.json` })).result[0] ?? {};
    }
    const failures = `/bulk/v1/leads/batch/${batchId}/failures.json`;
    const odd = await call({ method: "GET", endpoint: failures, where: 'email contains "-odd-"' });
    expect(odd.result.map((row) => row.email)).toEqual(
      rows.filter((r) => r.includes("-odd-")).map((r) => r.split(",")[0]),
    );
    const counted = await call({
      method: "GET",
      endpoint: failures,
      count_by: "firstName, Import Failure Reason",
    });
    expect(counted.result).toHaveLength(20);
    expect(counted.result.every((row) => row.count === 1 && row.firstName === "Bad")).toBe(true);
    const byName = await call({ method: "GET", endpoint: failures, count_by: "firstName" });
    expect(byName.result).toEqual([{ firstName: "Bad", count: 20, percent: 100 }]);
  });

  it("refuses a file with another method or endpoint, and says what to do with a file not yet written", async () => {
    const refused = await callTool({
      method: "POST",
      endpoint: "/rest/v1/leads.json",
      file: "email\na@b.co",
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("a file is sent only with POST to a bulk import endpoint");
    const withBody = await callTool({
      method: "POST",
      endpoint: "/bulk/v1/leads.json",
      query_parameters: { format: "csv" },
      body: { format: "csv" },
      file: "email\na@b.co",
    });
    expect(text(withBody)).toContain("a file is the request's only body");

    // Followed, the hint's path answers: the batch's status.
    const slow = await marketoFixture({ bulkJobMs: 60_000, leadCount: 10 });
    const slowSession = await mcpSession(slow.workspace);
    try {
      const created = (await slowSession.client.callTool({
        name: "marketo_api_call",
        arguments: {
          method: "POST",
          endpoint: "/bulk/v1/leads.json",
          query_parameters: { format: "csv" },
          file: "email\nx@example.com",
        },
      })) as CallToolResult;
      const batchId = (created.structuredContent as { result: { batchId: number }[] }).result[0]?.batchId;
      const early = (await slowSession.client.callTool({
        name: "marketo_api_call",
        arguments: { method: "GET", endpoint: `/bulk/v1/leads/batch/${batchId}/failures.json` },
      })) as CallToolResult;
      expect(early.isError).toBe(true);
      const hinted = `/bulk/v1/leads/batch/${batchId}.json`;
      expect(text(early)).toContain(`poll the batch's status (${hinted})`);
      const followed = (await slowSession.client.callTool({
        name: "marketo_api_call",
        arguments: { method: "GET", endpoint: hinted },
      })) as CallToolResult;
      expect(followed.isError).toBeFalsy();
      expect(followed.structuredContent).toMatchObject({ result: [{ batchId, status: "Importing" }] });
    } finally {
      await slowSession.close();
      await slow.close();
    }
  });
});
