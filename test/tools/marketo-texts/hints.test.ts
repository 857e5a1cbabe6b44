import { describe, expect, it } from "vitest";
import { type AdviceAnswer as Answer, type Args, adviceCalls } from "./advice.js";

/**
 * Every piece of advice marketo_api_call gives in an error or a warning, done as it says through MCP on
 * the sandbox: each row provokes the text, checks the advice is there, follows it, and checks that the
 * call then works. (The answers' own summaries are followed in answers.test.ts, the resume advice in
 * resume-hints.test.ts.)
 */
const { ok, refused } = adviceCalls();

/** The first searchable field the hint lists, as a lookup Marketo takes. */
const firstField = (said: string) => ({
  filterType: /(?:first|are): (\w+)/.exec(said)?.[1],
  filterValues: "1",
});
const since = (days = 3) => `${new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 19)}Z`;

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
