import { describe, expect, it } from "vitest";
import { marketoOverMcp } from "../../helpers/marketo-mcp.js";

/**
 * The texts of marketo_api_call's answers say what is true, through MCP on the sandbox: one account of
 * what was read and shown, sizes as they are, a header on every CSV page, a link for every export file,
 * and a paging token or a campaign request said for what it is. Each piece of advice is then followed.
 */
interface Answer {
  result: Record<string, unknown>[];
  complete: boolean;
  next_cursor?: string;
  next_page_token?: string;
  warnings: string[];
  pages: number;
  calls_used: number;
}

const mkto = marketoOverMcp({ bulkJobMs: 20 });

async function call(args: Record<string, unknown>) {
  const { data, first, links } = await mkto.ok<Answer>(args);
  return { data, summary: first.split("\n")[0] ?? "", text: first, links };
}

async function readText(uri: string) {
  const { contents } = await mkto.session.client.readResource({ uri });
  return contents[0] as { text: string; _meta?: Record<string, { next?: string; total_items?: number }> };
}

describe("a paging token answer", () => {
  it("is complete, says it is a token for /activities.json, and that read works", async () => {
    const since = `${new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 19)}Z`;
    const token = await call({
      method: "GET",
      endpoint: "/rest/v1/activities/pagingtoken.json",
      query_parameters: { sinceDatetime: since },
    });
    expect(token.data.complete).toBe(true);
    expect(token.data.next_cursor).toBeUndefined();
    expect(token.summary).not.toMatch(/next_cursor|more available/);
    expect(token.summary).toContain("GET /rest/v1/activities.json");
    expect(token.summary).toContain("nextPageToken: next_page_token");
    // Done as said: the token on /activities.json with activity type ids, paginated.
    const read = await call({
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { nextPageToken: token.data.next_page_token, activityTypeIds: "1,2" },
      paginate: true,
    });
    expect(read.data.result.length).toBeGreaterThan(0);
    for (const activity of read.data.result) {
      expect([1, 2]).toContain(activity.activityTypeId);
      expect(String(activity.activityDate) >= since).toBe(true);
    }
    // And the other way it names: sinceDatetime on /activities.json, without a token.
    const direct = await call({
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: since, activityTypeIds: "1,2" },
      paginate: true,
    });
    expect(direct.data.result.map((a) => a.marketoGUID)).toEqual(read.data.result.map((a) => a.marketoGUID));
  });
});

describe("a large list read", () => {
  const LIST = { method: "GET", endpoint: "/rest/v1/lists/1001/leads.json", paginate: true };

  it("says one count: what was read, what is shown, what the link holds", async () => {
    const { data, summary, links, text } = await call(LIST);
    expect(summary).toMatch(/^GET \/rest\/v1\/lists\/1001\/leads\.json: 1,250 records read in \d+ pages/);
    expect(summary).toContain(`the first ${data.result.length} are shown here`);
    expect(summary).toContain("all 1,250 are in the full result linked below");
    expect(summary).not.toContain("more remain");
    expect(summary).toContain(
      "or, to read the rest in answers instead, call again with cursor = next_cursor",
    );
    expect(links[0]?.title).toContain("1,250 records");
    expect(text).not.toMatch(/\b1,?251\b/);
  });

  it("states the real JSON sizes when the cap cut the answer, and says no cap when none did", async () => {
    const { data } = await call(LIST);
    const warning = data.warnings.find((w) => w.startsWith("Output capped")) ?? "";
    const shownBytes = data.result.reduce((sum, r) => sum + Buffer.byteLength(JSON.stringify(r)) + 1, 0);
    const shownKb = Math.round(shownBytes / 1000);
    expect(warning).toContain(`the ${data.result.length} shown are ${shownKb} KB`);
    expect(shownBytes).toBeLessThanOrEqual(45_000);
    expect(warning).toMatch(/the 1,250 read \d{3} KB/);
    const small = await call({ method: "GET", endpoint: "/rest/v1/lists/1009/leads.json" });
    expect(small.data.complete).toBe(true);
    expect(small.text).not.toContain("Output capped");
    expect(small.summary).toBe("GET /rest/v1/lists/1009/leads.json: 5 records read in 1 page, 1 call.");
  });

  it("puts the header row on every CSV page of the full result", async () => {
    const { links } = await call(LIST);
    const csv = links.find((link) => link.uri.endsWith(".csv"))?.uri ?? "";
    const one = await readText(csv);
    const header = one.text.split("\r\n")[0];
    expect(header).toBe("id,email,updatedAt,createdAt,firstName,lastName");
    const two = await readText(`${csv}?page=2`);
    expect(two.text.split("\r\n")[0]).toBe(header);
    expect(two.text.split("\r\n")[1]).toMatch(/^\d+,lead\d+@example\.com,/);
  });
});

describe("an export file", () => {
  async function smallExport(): Promise<string> {
    const created = await call({
      method: "POST",
      endpoint: "/bulk/v1/leads/export/create.json",
      body: { fields: ["id", "email"], format: "CSV", filter: { staticListId: 1009 } },
    });
    const id = created.data.result[0]?.exportId as string;
    await call({ method: "POST", endpoint: `/bulk/v1/leads/export/${id}/enqueue.json` });
    for (let poll = 0; poll < 200; poll += 1) {
      const status = await call({ method: "GET", endpoint: `/bulk/v1/leads/export/${id}/status.json` });
      if (status.data.result[0]?.status === "Completed") return id;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error("the export did not complete");
  }

  it("says its size truly and links even a small file, whose CSV is the file's rows", async () => {
    const id = await smallExport();
    const { summary, links, data } = await call({
      method: "GET",
      endpoint: `/bulk/v1/leads/export/${id}/file.json`,
    });
    expect(data.result).toHaveLength(5);
    expect(summary).not.toContain("MB");
    expect(summary).toMatch(/5 rows read \(rows 1–5 of the export file, which is \d+ bytes\)/);
    expect(summary).toContain("all 5 are shown here and in the full result linked below");
    expect(links.map((link) => link.uri.split(".").at(-1))).toEqual(["json", "csv"]);
    const csv = await readText(links[1]?.uri ?? "");
    expect(csv.text.split("\r\n").filter(Boolean)).toHaveLength(6);
  });
});

describe("a campaign trigger", () => {
  it("says what was requested for which leads, that it runs later, and the call that shows its activity", async () => {
    const { summary } = await call({
      method: "POST",
      endpoint: "/rest/v1/campaigns/1002/trigger.json",
      body: { input: { leads: [{ id: 5 }, { id: 7 }] } },
    });
    expect(summary).toContain(
      "Marketo accepted the request to run smart campaign 1002 for 2 leads (ids 5, 7)",
    );
    expect(summary).toContain("asynchronously");
    expect(summary).toContain("campaignId 1002");
    const said = /call marketo_api_call with (\{.*?\}) \(other/.exec(summary)?.[1] ?? "";
    const follow = JSON.parse(said) as Record<string, unknown>;
    expect(follow).toMatchObject({
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { leadIds: "5,7", activityTypeIds: "6,13,24,25" },
    });
    const activity = await call(follow);
    expect(activity.data.complete).toBe(true);
    for (const row of activity.data.result) expect([5, 7]).toContain(row.leadId);
    // What the summary says the activities carry, they carry: each lead has one with campaignId 1002.
    const logged = activity.data.result.filter((row) => row.campaignId === 1002);
    expect(new Set(logged.map((row) => row.leadId))).toEqual(new Set([5, 7]));
    // What it targets and that it can be requested, read from its smart list as the summary says.
    expect(summary).toMatch(
      /Smart campaign 1002 targets its smart list "[^"]+" \(id \d+\): triggers Campaign is Requested; .*\. It can be requested by API: the requested leads run through its flow/,
    );
    const list = await call({
      method: "GET",
      endpoint: "/rest/asset/v1/smartCampaign/1002/smartList.json",
      query_parameters: { includeRules: true },
    });
    expect(summary).toContain(
      `"${String(list.data.result[0]?.name)}" (id ${String(list.data.result[0]?.id)})`,
    );
    // The campaign run was queued at the sandbox for exactly those leads.
    expect(mkto.fixture.sandbox.campaignRuns().at(-1)).toMatchObject({ campaignId: 1002, leadIds: [5, 7] });
  });

  it("for more than 30 leads, says the activity call covers the first 30 (its leadIds limit) and the rest works too", async () => {
    const ids = Array.from({ length: 35 }, (_, i) => i + 1);
    const { summary } = await call({
      method: "POST",
      endpoint: "/rest/v1/campaigns/1002/trigger.json",
      body: { input: { leads: ids.map((id) => ({ id })) } },
    });
    const said = /call marketo_api_call with (\{.*?"paginate":true\})/.exec(summary)?.[1] ?? "";
    const follow = JSON.parse(said) as { query_parameters: Record<string, string> };
    expect(follow.query_parameters.leadIds?.split(",")).toEqual(ids.slice(0, 30).map(String));
    // The summary must not let the call pass for all 35 leads' activity.
    expect(summary).toContain("first 30 of the 35 leads");
    expect(summary).toContain("31,32,33,34,35");
    const rest = { ...follow, query_parameters: { ...follow.query_parameters, leadIds: "31,32,33,34,35" } };
    const activity = await call(rest);
    expect(activity.data.complete).toBe(true);
  });
});

describe("reading a campaign says what it targets and whether it can be requested, before any trigger", () => {
  it.each(["/rest/asset/v1/smartCampaign/1002.json", "/rest/v1/campaigns/1002.json"])(
    "GET %s names its smart list, a requestable trigger, and what trigger and schedule act on",
    async (endpoint) => {
      const { summary } = await call({ method: "GET", endpoint });
      expect(summary).toMatch(
        /Smart campaign 1002 targets its smart list "[^"]+" \(id \d+\): triggers Campaign is Requested; .*\. It can be requested by API: POST \/rest\/v1\/campaigns\/1002\/trigger\.json runs the leads you give through its flow/,
      );
      // A trigger campaign: Schedule Campaign runs batch campaigns, so the answer does not offer it.
      expect(summary).not.toContain("schedule.json");
      // Done as it says: the trigger it names takes leads.
      const trigger = await call({
        method: "POST",
        endpoint: "/rest/v1/campaigns/1002/trigger.json",
        body: { input: { leads: [{ id: 5 }] } },
      });
      expect(trigger.summary).toContain("campaignId 1002");
    },
  );

  it("a campaign without a Campaign is Requested trigger is said not to be requestable, and trigger.json refuses it", async () => {
    const { summary } = await call({ method: "GET", endpoint: "/rest/v1/campaigns/1003.json" });
    // A trigger campaign (Score Web Visits) is not called a batch campaign (trial s13, N90).
    expect(summary).toContain("triggers Visits Web Page");
    expect(summary).toContain("It cannot be requested by API (trigger.json refuses it");
    expect(summary).not.toContain("batch campaign");
    expect(summary).not.toContain("runs the leads you give");
    const refused = await mkto.call({
      method: "POST",
      endpoint: "/rest/v1/campaigns/1003/trigger.json",
      body: { input: { leads: [{ id: 5 }] } },
    });
    expect(refused.result.isError).toBe(true);
  });
});
