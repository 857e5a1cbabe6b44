import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, type Harness, jsonInit, startHarness } from "../../helpers/marketo-sandbox.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 1_500, seed: 7 });
});
afterAll(async () => {
  await h.close();
});

describe("Marketo sandbox leads", () => {
  it("looks up a lead by email (case-insensitively) with the default fields", async () => {
    const body = await h.call("/rest/v1/leads.json?filterType=email&filterValues=LEAD42@example.com");
    expect(body.success).toBe(true);
    expect(body.result).toHaveLength(1);
    const lead = body.result?.[0] ?? {};
    expect(Object.keys(lead).sort()).toEqual([
      "createdAt",
      "email",
      "firstName",
      "id",
      "lastName",
      "updatedAt",
    ]);
    expect(lead).toMatchObject({ id: 42, email: "lead42@example.com" });
    expect(lead.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(body).not.toHaveProperty("nextPageToken");
  });

  it("returns requested empty fields as null and no match as an empty result", async () => {
    const ids = Array.from({ length: 60 }, (_, i) => i + 1).join(",");
    const body = await h.call(`/rest/v1/leads.json?filterType=id&filterValues=${ids}&fields=phone,npsScore`);
    expect(body.result).toHaveLength(60);
    expect(body.result?.some((l) => l.phone === null)).toBe(true);
    expect(body.result?.every((l) => "npsScore" in l)).toBe(true);
    const none = await h.call("/rest/v1/leads.json?filterType=email&filterValues=nobody@example.com");
    expect(none).toMatchObject({ success: true, result: [] });
  });

  it("pages by nextPageToken to the end, with the seeded total", async () => {
    const emails = Array.from({ length: 300 }, (_, i) => `lead${i + 1}@example.com`).join(",");
    const seen: number[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const q = new URLSearchParams({ filterType: "email", filterValues: emails, batchSize: "70" });
      if (token) q.set("nextPageToken", token);
      const body = await h.call(`/rest/v1/leads.json?${q}`);
      seen.push(...(body.result ?? []).map((l) => l.id as number));
      token = body.nextPageToken;
      pages++;
    } while (token);
    expect(pages).toBe(5);
    expect(seen).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
  });

  it("refuses over 300 filterValues, over 1000 matches, unknown fields and a bad token", async () => {
    const many = Array.from({ length: 301 }, (_, i) => i + 1).join(",");
    expect(errorCode(await h.call(`/rest/v1/leads.json?filterType=id&filterValues=${many}`))).toBe("1003");
    const all = await h.call(
      "/rest/v1/leads.json?filterType=productInterest&filterValues=Analytics,Automation,CRM",
    );
    expect(all.errors?.[0]).toEqual({ code: "1003", message: "Too many results match the filter" });
    expect(errorCode(await h.call("/rest/v1/leads.json?filterType=id&filterValues=1&fields=shoeSize"))).toBe(
      "1006",
    );
    expect(
      errorCode(await h.call("/rest/v1/leads.json?filterType=id&filterValues=1&nextPageToken=XYZ")),
    ).toBe("1003");
    expect(errorCode(await h.call("/rest/v1/leads.json?filterValues=1"))).toBe("701");
  });

  it("accepts as filterType only the fields describe2 lists as searchable", async () => {
    const described = await h.call("/rest/v1/leads/describe2.json");
    const searchable = ((described.result?.[0]?.searchableFields ?? []) as string[][]).map(([name]) => name);
    expect(searchable).toContain("email");
    expect(searchable).not.toContain("lastName");
    for (const name of ["lastName", "gdprConsent", "company"]) {
      const refused = await h.call(`/rest/v1/leads.json?filterType=${name}&filterValues=x`);
      expect(refused.errors, name).toEqual([{ code: "1003", message: `Invalid filterType '${name}'` }]);
    }
    for (const name of searchable) {
      const body = await h.call(`/rest/v1/leads.json?filterType=${name}&filterValues=1`);
      expect(body.success, name).toBe(true);
    }
  });

  it("gets a lead by id (empty result when missing) and describes the lead fields", async () => {
    const one = await h.call("/rest/v1/lead/7.json?fields=email,customerTier");
    expect(one.result).toEqual([{ id: 7, email: "lead7@example.com", customerTier: expect.anything() }]);
    expect(await h.call("/rest/v1/lead/999999.json")).toMatchObject({ success: true, result: [] });
    const describe = await h.call("/rest/v1/leads/describe.json");
    const email = describe.result?.find((f) => (f.rest as { name: string }).name === "email");
    expect(email).toMatchObject({ dataType: "email", displayName: "Email Address" });
    expect(describe.result?.length).toBeGreaterThanOrEqual(20);
  });

  it("syncs leads with per-record statuses and skipped reasons without ids", async () => {
    const body = await h.call(
      "/rest/v1/leads.json",
      jsonInit("POST", {
        action: "createOrUpdate",
        lookupField: "email",
        input: [
          { email: "lead3@example.com", title: "Chief Sandbox Officer" },
          { email: "new.person@example.com", firstName: "New", leadScore: "12" },
          { email: "bademail" },
          { email: "x@example.com", shoeSize: 44 },
          { email: "y@example.com", leadScore: "lots" },
        ],
      }),
    );
    expect(body.success).toBe(true);
    expect(body.result?.[0]).toEqual({ id: 3, status: "updated" });
    expect(body.result?.[1]).toEqual({ id: 1501, status: "created" });
    expect(body.result?.[2]).toEqual({
      status: "skipped",
      reasons: [{ code: "1003", message: "Invalid value for field 'email' and value 'bademail'" }],
    });
    expect(body.result?.[3]).toEqual({
      status: "skipped",
      reasons: [{ code: "1006", message: "Field 'shoeSize' not found" }],
    });
    expect(body.result?.[4]).toMatchObject({ status: "skipped", reasons: [{ code: "1001" }] });

    const read = await h.call(
      "/rest/v1/leads.json?filterType=email&filterValues=new.person@example.com&fields=leadScore,title",
    );
    expect(read.result).toEqual([{ id: 1501, leadScore: 12, title: null }]);

    const only = await h.call(
      "/rest/v1/leads.json",
      jsonInit("POST", {
        action: "updateOnly",
        input: [{ email: "ghost@example.com" }, { email: "lead4@example.com", city: "Lima" }],
      }),
    );
    expect(only.result).toEqual([
      { status: "skipped", reasons: [{ code: "1004", message: "Lead not found" }] },
      { id: 4, status: "updated" },
    ]);
    const create = await h.call(
      "/rest/v1/leads.json",
      jsonInit("POST", { action: "createOnly", input: [{ email: "lead5@example.com" }] }),
    );
    expect(create.result).toEqual([
      { status: "skipped", reasons: [{ code: "1005", message: "Lead already exists" }] },
    ]);
  });

  it("refuses a sync with more than 300 records or no input", async () => {
    const input = Array.from({ length: 301 }, (_, i) => ({ email: `bulk${i}@example.com` }));
    expect(errorCode(await h.call("/rest/v1/leads.json", jsonInit("POST", { input })))).toBe("1003");
    expect(errorCode(await h.call("/rest/v1/leads.json", jsonInit("POST", { action: "createOnly" })))).toBe(
      "701",
    );
  });
});
