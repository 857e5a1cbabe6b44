import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDataSet } from "../../../src/sandbox/marketo/seed.js";
import { errorCode, type Harness, type Json, jsonInit, startHarness } from "../../helpers/marketo-sandbox.js";

const CLOCK = Date.UTC(2026, 10, 20, 15, 30);
// A frozen clock never slides the rate window, so lift the limit for this file.
const OPTIONS = { leadCount: 200, seed: 5, now: () => CLOCK, rateLimit: 1_000_000 };
const seeded = buildDataSet({ leadCount: OPTIONS.leadCount, seed: OPTIONS.seed, now: CLOCK }).activities;
let h: Harness;
beforeAll(async () => {
  h = await startHarness(OPTIONS);
});
afterAll(async () => {
  await h.close();
});

async function startToken(sinceMs: number): Promise<string> {
  const since = encodeURIComponent(new Date(sinceMs).toISOString().replace("Z", "+00:00"));
  const body = await h.call(`/rest/v1/activities/pagingtoken.json?sinceDatetime=${since}`);
  expect(body).not.toHaveProperty("result");
  return body.nextPageToken as string;
}

async function pageAll(path: string, query: Record<string, string>, token: string) {
  const pages: Json[] = [];
  let next = token;
  for (;;) {
    const body = await h.call(`${path}?${new URLSearchParams({ ...query, nextPageToken: next })}`);
    expect(body.success).toBe(true);
    expect(typeof body.nextPageToken).toBe("string");
    pages.push(body);
    next = body.nextPageToken as string;
    if (!body.moreResult) return { pages, last: next, items: pages.flatMap((p) => p.result ?? []) };
    expect(pages.length).toBeLessThan(500);
  }
}

describe("Marketo sandbox activities", () => {
  it("issues an opaque base32 date token without a result", async () => {
    const token = await startToken(CLOCK - 61 * 86_400_000);
    expect(token).toMatch(/^[A-Z2-7]+$/);
    expect(errorCode(await h.call("/rest/v1/activities/pagingtoken.json"))).toBe("701");
    expect(errorCode(await h.call("/rest/v1/activities/pagingtoken.json?sinceDatetime=yesterday"))).toBe(
      "1003",
    );
  });

  it("pages a filtered feed to the end, through empty pages that still say moreResult:true", async () => {
    const leadIds = Array.from({ length: 30 }, (_, i) => i + 1);
    const expected = seeded
      .filter((a) => [6, 7, 8, 27].includes(a.activityTypeId) && leadIds.includes(a.leadId))
      .map((a) => a.id);
    expect(expected.length).toBeGreaterThan(0);
    const token = await startToken(CLOCK - 61 * 86_400_000);
    const { pages, items } = await pageAll(
      "/rest/v1/activities.json",
      { activityTypeIds: "6,7,8,27", leadIds: leadIds.join(",") },
      token,
    );
    expect(items.map((a) => a.id)).toEqual(expected);
    const emptyButMore = pages.filter((p) => p.result?.length === 0 && p.moreResult === true);
    expect(emptyButMore.length).toBeGreaterThan(0);
    const bounce = items.find((a) => a.activityTypeId === 8 || a.activityTypeId === 27);
    expect(bounce ?? items[0]).toMatchObject({
      marketoGUID: expect.any(String),
      primaryAttributeValueId: expect.any(Number),
    });
  });

  it("fills pages up to batchSize and loses nothing between pages", async () => {
    const expected = seeded.filter((a) => a.activityTypeId === 1).map((a) => a.id);
    const { pages, items } = await pageAll(
      "/rest/v1/activities.json",
      { activityTypeIds: "1", batchSize: "7" },
      await startToken(CLOCK - 61 * 86_400_000),
    );
    expect(items.map((a) => a.id)).toEqual(expected);
    expect(Math.max(...pages.map((p) => p.result?.length ?? 0))).toBe(7);
    expect(items[0]?.activityDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it("resumes from the last token to see activity recorded later", async () => {
    const { last } = await pageAll(
      "/rest/v1/activities.json",
      { activityTypeIds: "13" },
      await startToken(CLOCK - 86_400_000),
    );
    await h.call(
      "/rest/v1/leads.json",
      jsonInit("POST", { action: "updateOnly", input: [{ email: "lead9@example.com", leadScore: 999 }] }),
    );
    const next = await h.call(`/rest/v1/activities.json?activityTypeIds=13&nextPageToken=${last}`);
    expect(next.result).toEqual([
      expect.objectContaining({ leadId: 9, activityTypeId: 13, primaryAttributeValue: "Lead Score" }),
    ]);
  });

  it("refuses missing or invalid paging parameters", async () => {
    const token = await startToken(CLOCK - 86_400_000);
    expect(errorCode(await h.call("/rest/v1/activities.json?activityTypeIds=1"))).toBe("701");
    expect(errorCode(await h.call(`/rest/v1/activities.json?nextPageToken=${token}`))).toBe("701");
    const elevenTypes = "1,2,3,6,7,8,9,10,11,12,13";
    expect(
      errorCode(
        await h.call(`/rest/v1/activities.json?nextPageToken=${token}&activityTypeIds=${elevenTypes}`),
      ),
    ).toBe("1003");
    const leads = Array.from({ length: 31 }, (_, i) => i + 1).join(",");
    expect(
      errorCode(
        await h.call(`/rest/v1/activities.json?nextPageToken=${token}&activityTypeIds=1&leadIds=${leads}`),
      ),
    ).toBe("1003");
    expect(
      errorCode(await h.call("/rest/v1/activities.json?nextPageToken=NOTATOKEN1&activityTypeIds=1")),
    ).toBe("1003");
  });

  it("serves lead changes for the requested fields only", async () => {
    const token = await startToken(CLOCK - 61 * 86_400_000);
    expect(errorCode(await h.call(`/rest/v1/activities/leadchanges.json?nextPageToken=${token}`))).toBe(
      "701",
    );
    const { items } = await pageAll("/rest/v1/activities/leadchanges.json", { fields: "leadScore" }, token);
    const changes = items.filter((a) => a.activityTypeId === 13);
    expect(changes.length).toBeGreaterThan(0);
    for (const change of changes) {
      expect(change.fields).toEqual([expect.objectContaining({ name: "leadScore", id: 15 })]);
    }
    expect(items.every((a) => a.activityTypeId === 12 || a.activityTypeId === 13)).toBe(true);
  });

  it("lists the standard activity types", async () => {
    const types = await h.call("/rest/v1/activities/types.json");
    const ids = types.result?.map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining([1, 2, 6, 7, 8, 10, 11, 12, 13, 27]));
    expect(types.result?.find((t) => t.id === 8)?.name).toBe("Email Bounced");
  });
});
