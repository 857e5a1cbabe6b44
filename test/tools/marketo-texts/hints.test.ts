import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MarketoFixture, marketoFixture } from "../../helpers/fixtures.js";
import { type McpSession, mcpSession } from "../../helpers/mcp.js";

/**
 * Every piece of advice marketo_api_call gives in an error or a warning, done as it says through MCP on
 * the sandbox: each row provokes the text, checks the advice is there, follows it, and checks that the
 * call then works. (The answers' own summaries are followed in answers.test.ts.)
 */
interface Answer {
  result: Record<string, unknown>[];
  complete: boolean;
  next_cursor?: string;
  next_page_token?: string;
  next_offset?: number;
  warnings: string[];
}
type Args = Record<string, unknown>;

let fixture: MarketoFixture;
let session: McpSession;

async function raw(args: Args) {
  const result = (await session.client.callTool({
    name: "marketo_api_call",
    arguments: args,
  })) as CallToolResult;
  const first = result.content[0];
  return { result, text: first?.type === "text" ? first.text : "" };
}
async function ok(args: Args): Promise<Answer> {
  const { result, text } = await raw(args);
  expect(result.isError, text).toBeFalsy();
  return result.structuredContent as unknown as Answer;
}
async function refused(args: Args): Promise<string> {
  const { result, text } = await raw(args);
  expect(result.isError, text).toBe(true);
  return text;
}

/** The first searchable field the hint lists, as a lookup Marketo takes. */
const firstField = (said: string) => ({
  filterType: /(?:first|are): (\w+)/.exec(said)?.[1],
  filterValues: "1",
});
const since = (days = 3) => `${new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 19)}Z`;

beforeAll(async () => {
  fixture = await marketoFixture({ bulkJobMs: 20 });
  session = await mcpSession(fixture.workspace);
});
afterAll(async () => {
  await session.close();
  await fixture.close();
});

interface Row {
  advice: string;
  provoke: Args;
  says: RegExp;
  /** The call(s) the advice names, built from what it said; each must work. */
  follow: (said: string) => Args[];
  check?: (answers: Answer[]) => void;
}

const ROWS: Row[] = [
  {
    advice: "1006: list fields with GET /rest/v1/leads/describe.json and use their REST API names",
    provoke: {
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: {
        filterType: "email",
        filterValues: "lead5@example.com",
        fields: "email,first_name",
      },
    },
    says: /list fields with GET \/rest\/v1\/leads\/describe\.json and use their REST API names/,
    follow: () => [{ method: "GET", endpoint: "/rest/v1/leads/describe.json", paginate: true }],
  },
  {
    advice: "610: did you mean the nearest real endpoint",
    provoke: {
      method: "GET",
      endpoint: "/rest/v1/lead.json",
      query_parameters: { filterType: "id", filterValues: "5" },
    },
    says: /did you mean \/rest\/v1\/leads\.json\?/,
    follow: (said) => [
      {
        method: "GET",
        endpoint: /did you mean (\S+)\?/.exec(said)?.[1],
        query_parameters: { filterType: "id", filterValues: "5" },
      },
    ],
    check: ([leads]) => expect(leads?.result.map((lead) => lead.id)).toEqual([5]),
  },
  {
    advice: "activities need a start: give sinceDatetime (ISO 8601)",
    provoke: {
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { activityTypeIds: "1" },
    },
    says: /give sinceDatetime \(ISO 8601, e\.g\. 2024-01-31T00:00:00Z\)/,
    follow: () => [
      {
        method: "GET",
        endpoint: "/rest/v1/activities.json",
        query_parameters: { activityTypeIds: "1", sinceDatetime: since() },
      },
    ],
  },
  {
    advice: "no stats endpoint: read activities 6-11, a bulk activity export, or stats/usage.json",
    provoke: { method: "GET", endpoint: "/rest/asset/v1/program/1001/stats.json" },
    says: /GET \/rest\/v1\/activities\.json with activityTypeIds 6,7,8,9,10,11.*\/bulk\/v1\/activities\/export\/create\.json.*\/rest\/v1\/stats\/usage\.json/,
    follow: () => [
      {
        method: "GET",
        endpoint: "/rest/v1/activities.json",
        query_parameters: { activityTypeIds: "6,7,8,9,10,11", sinceDatetime: since() },
        paginate: true,
      },
      {
        method: "POST",
        endpoint: "/bulk/v1/activities/export/create.json",
        body: {
          format: "CSV",
          filter: {
            createdAt: { startAt: since(), endAt: `${new Date().toISOString().slice(0, 19)}Z` },
            activityTypeIds: [6, 10],
          },
        },
      },
      { method: "GET", endpoint: "/rest/v1/stats/usage.json" },
    ],
    check: ([activities]) => expect(activities?.result.length).toBeGreaterThan(0),
  },
  {
    advice: "access_token: remove it from query_parameters",
    provoke: {
      method: "GET",
      endpoint: "/rest/v1/lists/1009/leads.json",
      query_parameters: { access_token: "x" },
    },
    says: /Remove access_token from query_parameters and call again/,
    follow: () => [{ method: "GET", endpoint: "/rest/v1/lists/1009/leads.json", query_parameters: {} }],
  },
  {
    advice: "_method: choose the HTTP method with the method field",
    provoke: {
      method: "POST",
      endpoint: "/rest/v1/lists/1008/leads.json",
      query_parameters: { _method: "DELETE", id: "1" },
    },
    says: /Choose the HTTP method with the method field .*Remove _method from query_parameters/,
    follow: () => [
      { method: "DELETE", endpoint: "/rest/v1/lists/1008/leads.json", query_parameters: { id: [1] } },
    ],
  },
  {
    advice: "a body with GET or DELETE: move the values into query_parameters",
    provoke: { method: "DELETE", endpoint: "/rest/v1/lists/1007/leads.json", body: { id: [1, 2] } },
    says: /Move the values into query_parameters \(for DELETE of list members: \{"id":\[1,2\]\}\), or use POST/,
    follow: () => [
      { method: "DELETE", endpoint: "/rest/v1/lists/1007/leads.json", query_parameters: { id: [1, 2] } },
    ],
    check: ([removed]) => expect(removed?.result.length).toBe(2),
  },
  {
    advice: "an unknown program type: the accepted ones",
    provoke: {
      method: "GET",
      endpoint: "/rest/asset/v1/programs.json",
      query_parameters: { type: "webinars" },
    },
    says: /accepted: email, default \(or program\), event, webinar \(Event with Webinar\), engagement \(or nurture\)/,
    follow: () => [
      {
        method: "GET",
        endpoint: "/rest/asset/v1/programs.json",
        query_parameters: { type: "webinar" },
        paginate: true,
      },
    ],
    check: ([programs]) => {
      expect(programs?.result.length).toBeGreaterThan(0);
      for (const program of programs?.result ?? []) expect(program.type).toMatch(/webinar/i);
    },
  },
  {
    advice: "701 filterType cannot be blank: filterType and filterValues, or a list's or program's members",
    provoke: { method: "GET", endpoint: "/rest/v1/leads.json" },
    says: /give filterType and filterValues .*GET \/rest\/v1\/lists\/\{listId\}\/leads\.json.*GET \/rest\/v1\/leads\/programs\/\{programId\}\.json/,
    follow: () => [
      {
        method: "GET",
        endpoint: "/rest/v1/leads.json",
        query_parameters: { filterType: "email", filterValues: "lead5@example.com" },
      },
      {
        method: "GET",
        endpoint: "/rest/v1/leads.json",
        query_parameters: { filterType: "id", filterValues: "5,7,18" },
      },
      { method: "GET", endpoint: "/rest/v1/lists/1009/leads.json", paginate: true },
      { method: "GET", endpoint: "/rest/v1/leads/programs/1001.json", paginate: true },
    ],
    check: ([byEmail, byId, list, program]) => {
      expect(byEmail?.result.map((lead) => lead.id)).toEqual([5]);
      expect(byId?.result).toHaveLength(3);
      expect(list?.result).toHaveLength(5);
      expect(program?.result.length).toBeGreaterThan(0);
    },
  },
  {
    advice: "1003 invalid filterType on leads.json: the searchable fields' call, or a lead export",
    provoke: {
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "company", filterValues: "Acme Corp" },
    },
    says: /No searchable lead field is named like "company"; the searchable lead fields are: [^.]*email[^.]*\. .*GET \/rest\/v1\/leads\/describe2\.json lists them .*POST \/bulk\/v1\/leads\/export\/create\.json .*run_to_completion true \(a span over 31 days runs as one job per 31 days.*with where/,
    follow: (said) => [
      { method: "GET", endpoint: "/rest/v1/leads/describe2.json" },
      { method: "GET", endpoint: "/rest/v1/leads.json", query_parameters: firstField(said) },
      {
        method: "POST",
        endpoint: "/bulk/v1/leads/export/create.json",
        body: {
          fields: ["id", "email", "company"],
          format: "CSV",
          // Longer than one job's 31 days, as the hint says the step takes.
          filter: { createdAt: { startAt: since(70), endAt: `${new Date().toISOString().slice(0, 19)}Z` } },
        },
        where: 'company contains "a"',
        run_to_completion: true,
      },
    ],
    check: ([describe, , exported]) => {
      const searchable = (describe?.result[0]?.searchableFields as string[][] | undefined)?.flat() ?? [];
      expect(searchable).toEqual(expect.arrayContaining(["id", "email"]));
      expect(exported?.result.length).toBeGreaterThan(0);
      expect(Object.keys(exported?.result[0] ?? {})).toContain("company");
      for (const lead of exported?.result ?? []) expect(String(lead.company).toLowerCase()).toContain("a");
    },
  },
  {
    advice: "1003 export range over 31 days: split it into windows, one export each",
    provoke: {
      method: "POST",
      endpoint: "/bulk/v1/leads/export/create.json",
      body: {
        fields: ["id"],
        format: "CSV",
        filter: { createdAt: { startAt: "2026-01-01T00:00:00Z", endAt: "2026-03-01T00:00:00Z" } },
      },
    },
    says: /Split the createdAt range into windows of at most 31 days: one request \(export job\) per window/,
    follow: () =>
      [
        ["2026-01-01T00:00:00Z", "2026-01-31T00:00:00Z"],
        ["2026-01-31T00:00:01Z", "2026-03-01T00:00:00Z"],
      ].map(([startAt, endAt]) => ({
        method: "POST",
        endpoint: "/bulk/v1/leads/export/create.json",
        body: { fields: ["id"], format: "CSV", filter: { createdAt: { startAt, endAt } } },
      })),
  },
];

describe("Marketo's generic advice is left out where it does not apply", () => {
  it("1003 texts never tell to narrow a filter to 1,000 leads where no filter matched too many", async () => {
    const invalid = await refused({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "company", filterValues: "Acme Corp" },
    });
    const wide = await refused({
      method: "POST",
      endpoint: "/bulk/v1/leads/export/create.json",
      body: {
        fields: ["id"],
        format: "CSV",
        filter: { createdAt: { startAt: "2026-01-01T00:00:00Z", endAt: "2026-03-01T00:00:00Z" } },
      },
    });
    for (const said of [invalid, wide])
      expect(said).not.toMatch(/1,000 leads|Fix the value the message names/);
  });

  it("a 610 for a real endpoint the sandbox does not serve never says to check the ids in the path", async () => {
    const said = await refused({
      method: "GET",
      endpoint: "/rest/v1/companies.json",
      query_parameters: { filterType: "id", filterValues: "1" },
    });
    expect(said).toContain(
      "The path is right (/rest/v1/companies.json); the sandbox does not serve it: call it on a real Marketo instance",
    );
    expect(said).not.toMatch(/check the ids/);
  });
});

describe("each piece of advice, done as it says, works", () => {
  it.each(ROWS)("$advice", async (row) => {
    const said = await refused(row.provoke);
    expect(said).toMatch(row.says);
    const answers: Answer[] = [];
    for (const args of row.follow(said)) answers.push(await ok(args));
    row.check?.(answers);
  });
});

describe("the resume advice of answers and errors, done as it says, works", () => {
  const LIST = { method: "GET", endpoint: "/rest/v1/lists/1001/leads.json" };

  it("query_parameters.nextPageToken = next_page_token continues where the page ended", async () => {
    const first = await ok({ ...LIST, query_parameters: { batchSize: 100 }, paginate: true, max_pages: 1 });
    expect(first.warnings.join(" ")).toContain("or query_parameters.nextPageToken = next_page_token");
    const second = await ok({
      ...LIST,
      query_parameters: { batchSize: 100, nextPageToken: first.next_page_token },
    });
    const ids = [...first.result, ...second.result].map((lead) => lead.id);
    expect(new Set(ids).size).toBe(200);
  });

  it("query_parameters.offset = next_offset continues an asset browse", async () => {
    const first = await ok({
      method: "GET",
      endpoint: "/rest/asset/v1/emails.json",
      query_parameters: { maxReturn: 5 },
    });
    // The output schema names it "the offset that continues"; no warning repeats it for a page read whole.
    expect(first.next_offset).toBe(5);
    const second = await ok({
      method: "GET",
      endpoint: "/rest/asset/v1/emails.json",
      query_parameters: { maxReturn: 5, offset: first.next_offset },
    });
    const ids = [...first.result, ...second.result].map((email) => email.id);
    expect(new Set(ids).size).toBe(10);
  });

  it("remove nextPageToken when passing cursor; leave cursor out to start again", async () => {
    const first = await ok({ ...LIST, query_parameters: { batchSize: 100 } });
    const both = await refused({
      ...LIST,
      query_parameters: { batchSize: 100, nextPageToken: first.next_page_token },
      cursor: first.next_cursor,
    });
    expect(both).toContain("Remove nextPageToken from query_parameters when you pass cursor.");
    const next = await ok({ ...LIST, query_parameters: { batchSize: 100 }, cursor: first.next_cursor });
    expect(next.result[0]?.id).not.toBe(first.result[0]?.id);
    const other = await refused({ ...LIST, query_parameters: { batchSize: 50 }, cursor: first.next_cursor });
    expect(other).toContain("leave cursor out to start at the beginning");
    const again = await ok({ ...LIST, query_parameters: { batchSize: 50 } });
    expect(again.result[0]?.id).toBe(first.result[0]?.id);
  });

  it("a kept result's nextCursor (in each page's _meta) continues after what was read", async () => {
    const { result } = await raw({ ...LIST });
    const link = result.content.find((block) => block.type === "resource_link") as {
      uri: string;
      description: string;
    };
    expect(link.description).toContain("continue after it with cursor = the nextCursor in each page's _meta");
    const page = (await session.client.readResource({ uri: link.uri })).contents[0] as {
      text: string;
      _meta: Record<string, { nextCursor?: string; total_items: number }>;
    };
    const meta = page._meta["martech-steps/page"];
    const after = await ok({ ...LIST, cursor: meta?.nextCursor });
    const kept = JSON.parse(page.text) as { id: number }[];
    expect(after.result[0]?.id).toBeGreaterThan(kept.at(-1)?.id ?? Number.POSITIVE_INFINITY);
    expect(meta?.total_items).toBe(300);
  });

  it("an export file not ready: read status, enqueue while Created, poll, then the file is there", async () => {
    const created = await ok({
      method: "POST",
      endpoint: "/bulk/v1/leads/export/create.json",
      body: { fields: ["id"], format: "CSV", filter: { staticListId: 1009 } },
    });
    const id = created.result[0]?.exportId as string;
    const file = { method: "GET", endpoint: `/bulk/v1/leads/export/${id}/file.json` };
    const said = await refused(file);
    expect(said).toContain("while it says Created, enqueue the job (POST …/export/{exportId}/enqueue.json)");
    const status = await ok({ method: "GET", endpoint: `/bulk/v1/leads/export/${id}/status.json` });
    expect(status.result[0]?.status).toBe("Created");
    await ok({ method: "POST", endpoint: `/bulk/v1/leads/export/${id}/enqueue.json` });
    for (let poll = 0; poll < 200; poll += 1) {
      const now = await ok({ method: "GET", endpoint: `/bulk/v1/leads/export/${id}/status.json` });
      if (now.result[0]?.status === "Completed") break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect((await ok(file)).result).toHaveLength(5);
  });
});
