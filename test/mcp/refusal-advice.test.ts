import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type GoogleFixture,
  googleFixture,
  type MarketoFixture,
  marketoFixture,
} from "../helpers/fixtures.js";
import { mcpSession } from "../helpers/mcp.js";

/**
 * Advice the tools gave that no test had followed yet (issue 27 §4), one row each: the row provokes the
 * refusal through MCP on the sandbox, checks the advice is said, does what it says, and checks the call
 * then works. The rows of test/tools/marketo-texts/hints.test.ts and test/mcp/ga-texts.test.ts are not
 * repeated here.
 */
type Args = Record<string, unknown>;
interface Row {
  advice: string;
  tool: string;
  provoke: Args;
  says: RegExp;
  /** The call(s) the advice names, built from what it said; each must work. */
  follow: (said: string, provoke: Args) => Args | Args[];
  /** The tool the advice names, when it is another one. */
  followTool?: string;
  /** What the followed calls must give, beyond working. */
  check?: (answers: CallToolResult[]) => void;
}

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
const without = (args: Args, key: string): Args =>
  Object.fromEntries(Object.entries(args).filter(([name]) => name !== key));
const REPORT = { property: "412345671", metrics: ["sessions"], dimensions: ["deviceCategory"] };
const REALTIME = { property: "412345671", metrics: ["activeUsers"], dimensions: ["deviceCategory"] };

const GA_ROWS: Row[] = [
  {
    advice: "Swap start_date and end_date.",
    tool: "google_analytics_run_reports",
    provoke: { ...REPORT, date_ranges: [{ start_date: "2026-11-20", end_date: "2026-11-10" }] },
    says: /Swap start_date and end_date\./,
    follow: () => ({ ...REPORT, date_ranges: [{ start_date: "2026-11-10", end_date: "2026-11-20" }] }),
  },
  {
    advice: "Remove date_ranges (use minute_ranges), or set realtime to false.",
    tool: "google_analytics_run_reports",
    provoke: { ...REALTIME, realtime: true, date_ranges: ["last7Days"] },
    says: /Remove date_ranges \(use minute_ranges\), or set realtime to false\./,
    follow: (_said, provoke) => without(provoke, "date_ranges"),
  },
  {
    advice: "Set realtime to true, or use date_ranges.",
    tool: "google_analytics_run_reports",
    provoke: { ...REALTIME, minute_ranges: [{ start_minutes_ago: 29, end_minutes_ago: 0 }] },
    says: /Set realtime to true, or use date_ranges\./,
    follow: (_said, provoke) => ({ ...provoke, realtime: true }),
  },
  {
    advice: "Remove offset, or raise limit.",
    tool: "google_analytics_run_reports",
    provoke: { ...REALTIME, realtime: true, offset: 5 },
    says: /Remove offset, or raise limit\./,
    follow: (_said, provoke) => without(provoke, "offset"),
  },
  {
    advice: "Move the values into query_parameters, or use POST.",
    tool: "google_analytics_api_call",
    provoke: { method: "GET", endpoint: "v1beta/accountSummaries", body: { pageSize: 5 } },
    says: /Move the values into query_parameters, or use POST/,
    follow: () => ({
      method: "GET",
      endpoint: "v1beta/accountSummaries",
      query_parameters: { pageSize: 5 },
    }),
  },
  {
    advice: "Remove order_type: metrics always sort as numbers.",
    tool: "google_analytics_run_reports",
    provoke: { ...REPORT, order_by: [{ field: "sessions", desc: true, order_type: "NUMERIC" }] },
    says: /Remove order_type: metrics always sort as numbers\./,
    follow: (_said, provoke) => ({ ...provoke, order_by: [{ field: "sessions", desc: true }] }),
  },
  {
    advice: "GA sorts only by fields in the report: <the report's fields>",
    tool: "google_analytics_run_reports",
    provoke: { ...REPORT, order_by: "-totalUsers" },
    says: /GA sorts only by fields in the report: sessions, deviceCategory\./,
    follow: (said, provoke) => ({
      ...provoke,
      order_by: `-${/in the report: (\w+)/.exec(said)?.[1]}`,
    }),
  },
  {
    advice: "a funnel with metrics: Remove it: a funnel answers users, completion and abandonment per step",
    tool: "google_analytics_run_reports",
    provoke: {
      property: "412345671",
      metrics: ["sessions"],
      funnel: { steps: ["session_start", "view_item"] },
    },
    says: /Remove it: a funnel answers users, completion and abandonment per step\./,
    follow: (_said, provoke) => without(provoke, "metrics"),
  },
  {
    advice: "dimensions or metrics under or: run one report per alternative of the or",
    tool: "google_analytics_run_reports",
    provoke: { ...REPORT, filter: 'deviceCategory == "mobile" or sessions > 100' },
    says: /Join dimension and metric conditions with and only, or run one report per alternative of the or/,
    follow: () => [
      { ...REPORT, filter: 'deviceCategory == "mobile"' },
      { ...REPORT, filter: "sessions > 100" },
    ],
  },
  {
    advice: "unknown field names: use API names from the property's metadata (GET …/metadata)",
    tool: "google_analytics_run_reports",
    provoke: { ...REPORT, metrics: ["sesions"] },
    says: /google_analytics_api_call with GET v1beta\/properties\/<id>\/metadata/,
    followTool: "google_analytics_api_call",
    follow: () => ({ method: "GET", endpoint: "v1beta/properties/412345671/metadata" }),
    // Each metric as its API name, then its UI name (ga/metadata-names.ts).
    check: ([metadata]) =>
      expect(JSON.stringify(metadata?.structuredContent)).toContain('"sessions (Sessions)"'),
  },
];

const MARKETO_ROWS: Row[] = [
  {
    advice: "where names an unknown field: use one of those names as written, e.g. the closest",
    tool: "marketo_api_call",
    provoke: {
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      paginate: true,
      where: 'emial ends_with "@example.com"',
    },
    says: /Use one of those names as written \(names are case-sensitive; [^)]*\), e\.g\. \w+\./,
    follow: (said, provoke) => ({
      ...provoke,
      where: `${/e\.g\. (\w+)\./.exec(said)?.[1]} ends_with "@example.com"`,
    }),
  },
];

const ACTIVITIES = "/rest/v1/activities.json";
const ELEVEN_TYPES = [1, 2, 3, 6, 7, 8, 9, 10, 11, 12, 13];
const resultOf = (answer: CallToolResult | undefined) =>
  ((answer?.structuredContent ?? {}) as { result?: Record<string, unknown>[] }).result ?? [];

/** "1x" is no type: the advice names the types call, whose ids then read activities. */
const MISTYPED_ACTIVITY: Row = {
  advice: "an unknown activity type: GET /rest/v1/activities/types.json lists every type with its id",
  tool: "marketo_api_call",
  provoke: {
    method: "GET",
    endpoint: ACTIVITIES,
    query_parameters: { activityTypeIds: "6,1x", sinceDatetime: "2026-01-01T00:00:00Z" },
  },
  says: /GET \/rest\/v1\/activities\/types\.json lists every type with its id\./,
  follow: (said) => [
    { method: "GET", endpoint: /GET (\S+) lists every type/.exec(said)?.[1], paginate: true },
  ],
  check: ([types]) =>
    expect(resultOf(types).map((type) => type.name)).toEqual(
      expect.arrayContaining(["Send Email", "Open Email", "New Lead"]),
    ),
};

MARKETO_ROWS.push(
  MISTYPED_ACTIVITY,
  {
    advice: 'with count_by, order_by sorts the counts: e.g. order_by "-count"',
    tool: "marketo_api_call",
    provoke: {
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      paginate: true,
      count_by: "lastName",
      order_by: "-email",
    },
    says: /E\.g\. order_by "-count" \(most frequent first, the default\) or "lastName"\./,
    follow: (said, provoke) => ({ ...provoke, order_by: /E\.g\. order_by "([^"]+)"/.exec(said)?.[1] }),
  },
  {
    // More than Marketo's 10 types a read: the step reads them in groups with paginate (activity-groups.ts).
    advice: "more than 10 activity types: send the same call with paginate true",
    tool: "marketo_api_call",
    provoke: {
      method: "GET",
      endpoint: ACTIVITIES,
      query_parameters: { activityTypeIds: ELEVEN_TYPES.join(","), sinceDatetime: "2026-01-01T00:00:00Z" },
    },
    says: /11 activity types is more than the 10 one Marketo read takes; .* Send the same call with paginate true/,
    follow: (_said, provoke) => ({ ...provoke, paginate: true }),
  },
);

async function followed(client: Client, row: Row): Promise<string> {
  const call = async (args: Args, name = row.tool) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const refused = await call(row.provoke);
  expect(refused.isError, text(refused)).toBe(true);
  expect(text(refused)).toMatch(row.says);
  const answers: CallToolResult[] = [];
  for (const args of [row.follow(text(refused), row.provoke)].flat()) {
    const done = await call(args, row.followTool);
    expect(done.isError, text(done)).toBeFalsy();
    answers.push(done);
  }
  row.check?.(answers);
  return text(refused);
}

describe("GA advice, done as it says, works", () => {
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

  it.each(GA_ROWS)("$advice", async (row) => {
    await followed(client, row);
  });
});

describe("Marketo advice, done as it says, works", () => {
  let fixture: MarketoFixture;
  let client: Client;
  let close: () => Promise<void>;
  beforeAll(async () => {
    fixture = await marketoFixture();
    ({ client, close } = await mcpSession(fixture.workspace));
  });
  afterAll(async () => {
    await close();
    await fixture.close();
  });

  it.each(MARKETO_ROWS)("$advice", async (row) => {
    await followed(client, row);
  });

  it("a wrong activity type id is refused with the types call, never with 1,000-leads or generic advice", async () => {
    const said = await followed(client, MISTYPED_ACTIVITY);
    expect(said).not.toMatch(
      /1,000|narrow the filter|the field the message names|Fix the value the message names/,
    );
  });
});
