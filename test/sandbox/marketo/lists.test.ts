import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDataSet } from "../../../src/sandbox/marketo/seed.js";
import { errorCode, type Harness, jsonInit, startHarness } from "../../helpers/marketo-sandbox.js";

const CLOCK = Date.UTC(2026, 10, 2, 9);
const OPTIONS = { leadCount: 2_000, seed: 11, now: () => CLOCK };
let h: Harness;
beforeAll(async () => {
  h = await startHarness(OPTIONS);
});
afterAll(async () => {
  await h.close();
});

async function allMembers(path: string, batchSize: number): Promise<{ ids: number[]; pages: number }> {
  const ids: number[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const q = new URLSearchParams({ batchSize: String(batchSize), fields: "email" });
    if (token) q.set("nextPageToken", token);
    const body = await h.call(`${path}?${q}`);
    expect(body.success).toBe(true);
    expect(body).not.toHaveProperty("moreResult");
    ids.push(...(body.result ?? []).map((l) => l.id as number));
    token = body.nextPageToken;
    pages++;
  } while (token);
  return { ids, pages };
}

describe("Marketo sandbox static lists", () => {
  it("lists the 10 seeded lists and gets one by id; unknown list is 1013", async () => {
    const lists = await h.call("/rest/v1/lists.json");
    expect(lists.result).toHaveLength(10);
    expect(Object.keys(lists.result?.[0] ?? {}).sort()).toEqual(
      ["createdAt", "description", "id", "name", "programName", "updatedAt", "workspaceName"].sort(),
    );
    const paged = await h.call("/rest/v1/lists.json?batchSize=4");
    expect(paged.result).toHaveLength(4);
    expect(typeof paged.nextPageToken).toBe("string");
    // Real paged Get Lists answers carry nextPageToken only (ADE static-lists.md).
    expect(paged).not.toHaveProperty("moreResult");
    const byName = await h.call("/rest/v1/lists.json?name=Beta%20Testers");
    expect(byName.result?.map((l) => l.id)).toEqual([1005]);
    expect((await h.call("/rest/v1/lists/1001.json")).result?.[0]?.name).toBe("Newsletter Subscribers");
    expect(errorCode(await h.call("/rest/v1/lists/9999.json"))).toBe("1013");
    expect(errorCode(await h.call("/rest/v1/lists/9999/leads.json"))).toBe("1013");
  });

  it("pages the large list's members by nextPageToken to the end (count = seeded members)", async () => {
    const seeded = buildDataSet({ leadCount: OPTIONS.leadCount, seed: OPTIONS.seed, now: CLOCK }).lists[0];
    const expected = [...(seeded?.members ?? [])].sort((a, b) => a - b);
    expect(expected.length).toBeGreaterThanOrEqual(1_200);
    const { ids, pages } = await allMembers("/rest/v1/lists/1001/leads.json", 300);
    expect(ids).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 300));
    // The legacy singular alias serves the same members.
    const legacy = await allMembers("/rest/v1/list/1001/leads.json", 250);
    expect(legacy.ids).toEqual(expected);
  });

  it("adds, checks and removes members with per-id statuses", async () => {
    const empty = "/rest/v1/lists/1010";
    const added = await h.call(`${empty}/leads.json?id=5&id=6,7&id=999999`, { method: "POST" });
    expect(added.result).toEqual([
      { id: 5, status: "added" },
      { id: 6, status: "added" },
      { id: 7, status: "added" },
      { id: 999999, status: "skipped", reasons: [{ code: "1004", message: "Lead not found" }] },
    ]);
    const viaBody = await h.call(`${empty}/leads.json`, jsonInit("POST", { input: [{ id: 8 }] }));
    expect(viaBody.result).toEqual([{ id: 8, status: "added" }]);

    const member = await h.call(`${empty}/leads/ismember.json?id=5,9,999999`);
    expect(member.result).toEqual([
      { id: 5, status: "memberof" },
      { id: 9, status: "notmemberof" },
      { id: 999999, status: "skipped", reasons: [{ code: "1004", message: "Lead not found" }] },
    ]);

    const removed = await h.call(`${empty}/leads.json?id=5,9`, { method: "DELETE" });
    expect(removed.result).toEqual([
      { id: 5, status: "removed" },
      { id: 9, status: "skipped", reasons: [{ code: "1015", message: "Lead not in list" }] },
    ]);
    const removedViaBody = await h.call(`${empty}/leads.json`, jsonInit("DELETE", { input: [{ id: 6 }] }));
    expect(removedViaBody.result).toEqual([{ id: 6, status: "removed" }]);
    expect((await allMembers(`${empty}/leads.json`, 300)).ids).toEqual([7, 8]);
  });

  it("refuses more than 300 ids and a call with none", async () => {
    const ids = Array.from({ length: 301 }, (_, i) => i + 1).join(",");
    expect(errorCode(await h.call(`/rest/v1/lists/1002/leads.json?id=${ids}`, { method: "POST" }))).toBe(
      "1003",
    );
    expect(errorCode(await h.call("/rest/v1/lists/1002/leads.json", { method: "DELETE" }))).toBe("701");
  });
});
