import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, type Harness, jsonInit, startHarness } from "../../helpers/marketo-sandbox.js";

const NOW = Date.parse("2025-03-03T15:00:00Z");
let clock = NOW;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 300, now: () => clock });
});
afterAll(async () => {
  await h.close();
});

async function pagingToken(since: number): Promise<string> {
  const body = await h.call(
    `/rest/v1/activities/pagingtoken.json?sinceDatetime=${encodeURIComponent(new Date(since).toISOString())}`,
  );
  return body.nextPageToken as string;
}

describe("Delete Leads and the deleted-leads feed", () => {
  it("deletes through leads/delete.json, DELETE leads.json and POST leads.json?_method=DELETE", async () => {
    clock = NOW + 60_000;
    const since = await pagingToken(clock - 1_000);
    const members = async () =>
      (await h.call("/rest/v1/lists/1001/leads.json?fields=id")).result?.map((l) => l.id) ?? [];
    const victim = (await members())[0] as number;
    const first = await h.call(
      "/rest/v1/leads/delete.json",
      jsonInit("POST", { input: [{ id: victim }, { id: 99_999 }] }),
    );
    expect(first.result).toEqual([
      { id: victim, status: "deleted" },
      { id: 99_999, status: "skipped", reasons: [{ code: "1004", message: "Lead not found" }] },
    ]);
    expect(await members()).not.toContain(victim);
    expect((await h.call(`/rest/v1/lead/${victim}.json`)).result).toEqual([]);
    // A recorded real delete (GRP): the sandbox used to read this as a sync and skip it with 1003.
    const override = await h.call(
      "/rest/v1/leads.json?_method=DELETE",
      jsonInit("POST", { input: [{ id: 11 }] }),
    );
    expect(override.result).toEqual([{ id: 11, status: "deleted" }]);
    const method = await h.call("/rest/v1/leads.json", jsonInit("DELETE", { input: [{ id: 12 }] }));
    expect(method.result).toEqual([{ id: 12, status: "deleted" }]);
    const byQuery = await h.call("/rest/v1/leads/delete.json?id=13,14", { method: "POST" });
    expect(byQuery.result?.map((r) => r.status)).toEqual(["deleted", "deleted"]);
    expect(errorCode(await h.call("/rest/v1/leads/delete.json", jsonInit("POST", { input: [] })))).toBe(
      "701",
    );
    const tooMany = Array.from({ length: 301 }, (_, i) => ({ id: i + 1 }));
    expect(errorCode(await h.call("/rest/v1/leads/delete.json", jsonInit("POST", { input: tooMany })))).toBe(
      "1003",
    );

    const feed = await h.call(`/rest/v1/activities/deletedleads.json?nextPageToken=${since}`);
    expect(feed.result?.map((a) => a.leadId)).toEqual([victim, 11, 12, 13, 14]);
    expect(feed.result?.[0]).toMatchObject({
      activityTypeId: 37,
      primaryAttributeValueId: victim,
      primaryAttributeValue: expect.stringMatching(/^\S+ \S+$/),
      attributes: [],
    });
    expect(feed.nextPageToken).toEqual(expect.any(String));
    expect(errorCode(await h.call("/rest/v1/activities/deletedleads.json"))).toBe("701");
  });

  it("describes leads with describe2 and searchable fields", async () => {
    const body = await h.call("/rest/v1/leads/describe2.json");
    const described = body.result?.[0] as {
      name: string;
      searchableFields: string[][];
      fields: { name: string; updateable: boolean }[];
    };
    expect(described.name).toBe("API Lead");
    expect(described.searchableFields).toContainEqual(["email"]);
    expect(described.fields.find((f) => f.name === "createdAt")).toMatchObject({
      updateable: false,
      dataType: "datetime",
    });
  });
});

describe("program membership", () => {
  it("lists the leads of a program with their membership, paged by token", async () => {
    const page = await h.call("/rest/v1/leads/programs/1004.json?batchSize=10&fields=email,leadScore");
    expect(page.result).toHaveLength(10);
    expect(page.result?.[0]).toMatchObject({
      id: expect.any(Number),
      email: expect.stringMatching(/@example\.com$/),
      leadScore: expect.any(Number),
      membership: {
        progressionStatus: expect.any(String),
        membershipDate: expect.stringMatching(/Z$/),
        stream: expect.stringMatching(/^Stream/),
      },
    });
    const next = await h.call(
      `/rest/v1/leads/programs/1004.json?batchSize=10&nextPageToken=${page.nextPageToken}`,
    );
    expect(next.result?.[0]?.id).toBeGreaterThan(page.result?.[9]?.id as number);
    expect(errorCode(await h.call("/rest/v1/leads/programs/9999.json"))).toBe("1013");
  });

  it("filters program members by status and updatedAt, with seq and the requested fields", async () => {
    const clicked = await h.call(
      "/rest/v1/programs/1001/members.json?filterType=statusName&filterValues=Clicked&fields=statusName,reachedSuccess",
    );
    expect(clicked.result?.length).toBeGreaterThan(0);
    clicked.result?.forEach((m, i) => {
      expect(m).toMatchObject({ seq: i, programId: 1001, statusName: "Clicked", reachedSuccess: true });
    });
    const week = (from: string, to: string) =>
      `/rest/v1/programs/1001/members.json?filterType=updatedAt&startAt=${from}&endAt=${to}`;
    expect(errorCode(await h.call(week("2025-01-01T00:00:00Z", "2025-01-09T00:00:00Z")))).toBe("1003");
    expect((await h.call(week("2025-01-01T00:00:00Z", "2025-01-07T00:00:00Z"))).success).toBe(true);
    expect(errorCode(await h.call("/rest/v1/programs/1001/members.json?filterType=statusName"))).toBe("701");
    expect(
      errorCode(await h.call("/rest/v1/programs/1001/members.json?filterType=email&filterValues=x")),
    ).toBe("1003");
    expect(
      errorCode(
        await h.call("/rest/v1/programs/1001/members.json?filterType=leadId&filterValues=1&fields=nope"),
      ),
    ).toBe("1006");
    const describe = await h.call("/rest/v1/programs/members/describe.json");
    expect(describe.result?.[0]).toMatchObject({
      name: "API Program Membership",
      dedupeFields: ["leadId", "programId"],
    });
  });
});

describe("API error statistics and paths the sandbox does not emulate", () => {
  it("counts error responses per code for the day", async () => {
    const before = (await h.call("/rest/v1/stats/errors.json")).result?.[0] as {
      errors: { errorCode: string; count: number }[];
    };
    const count = (day: typeof before, code: string) =>
      day.errors.find((e) => e.errorCode === code)?.count ?? 0;
    await h.call("/rest/v1/nope.json");
    await h.call("/rest/v1/nope.json");
    expect(errorCode(await h.call("/rest/v1/lead/x.json"))).toBe("1001");
    await h.call("/rest/v1/lead/50.json?fields=nope");
    const after = (await h.call("/rest/v1/stats/errors.json")).result?.[0] as typeof before & {
      total: number;
    };
    expect(count(after, "610") - count(before, "610")).toBe(2);
    expect(count(after, "1001") - count(before, "1001")).toBe(1);
    expect(count(after, "1006") - count(before, "1006")).toBe(1);
    expect(after.total).toBe(after.errors.reduce((sum, e) => sum + e.count, 0));
    const week = await h.call("/rest/v1/stats/errors/last7days.json");
    expect(week.result).toHaveLength(7);
    expect(week.result?.[6]).toMatchObject({ total: 0, errors: [] });
  });

  it("answers a real endpoint it does not emulate with a 610 that says so, and keeps 610/605 for the rest", async () => {
    const companies = await h.call("/rest/v1/companies.json?filterType=id&filterValues=1");
    expect(companies.errors).toEqual([
      {
        code: "610",
        message:
          "Requested resource not found: GET /rest/v1/companies.json is a real Marketo endpoint that this sandbox does not emulate",
      },
    ]);
    const update = await h.call("/rest/asset/v1/staticList/1001.json", { method: "POST" });
    expect(update).toMatchObject({
      success: false,
      warnings: [],
      errors: [{ code: "610", message: expect.stringContaining("POST /rest/asset/v1/staticList/{id}.json") }],
    });
    const schema = await h.call("/rest/v1/customobjects/schema/car_c/describe.json");
    expect(schema.errors?.[0]?.message).toContain(
      "GET /rest/v1/customobjects/schema/{apiName}/describe.json",
    );
    expect((await h.call("/rest/v1/nope.json")).errors).toEqual([
      { code: "610", message: "Requested resource not found" },
    ]);
    expect(errorCode(await h.call("/rest/v1/companies.json", { method: "DELETE" }))).toBe("605");
    expect(errorCode(await h.call("/rest/v1/leads/delete.json"))).toBe("605");
  });

  it("says 'not emulated' for every user management operation of Adobe's user Swagger", async () => {
    // The operations come from the Swagger (test/fixtures/real-api/marketo-user.json), not from a list here.
    const fixture = JSON.parse(
      readFileSync(new URL("../../fixtures/real-api/marketo-user.json", import.meta.url), "utf8"),
    ) as { operations: Record<string, unknown> };
    const operations = Object.keys(fixture.operations);
    expect(operations).toHaveLength(12);
    for (const operation of operations) {
      const [method = "", template = ""] = operation.split(" ");
      const body = await h.call(template.replace("{userid}", "42"), { method });
      expect(body, operation).toMatchObject({ success: false });
      expect(body.errors, operation).toEqual([
        {
          code: "610",
          message: `Requested resource not found: ${operation} is a real Marketo endpoint that this sandbox does not emulate`,
        },
      ]);
    }
  });
});
