import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, formInit, type Harness, jsonInit, startHarness } from "../../helpers/marketo-sandbox.js";

const NO_ASSETS = ["No assets found for the given search criteria."];
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 200 });
});
afterAll(async () => {
  await h.close();
});

describe("Asset static lists are the Lead DB lists", () => {
  it("shows the seeded lists with their folder, and a list created here in lists.json", async () => {
    const browse = await h.call("/rest/asset/v1/staticLists.json?maxReturn=200");
    expect(browse.result?.map((l) => l.id)).toEqual([
      1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010,
    ]);
    expect(browse.result?.[0]).toEqual({
      id: 1001,
      name: "Newsletter Subscribers",
      createdAt: expect.stringMatching(/Z\+0000$/),
      updatedAt: expect.stringMatching(/Z\+0000$/),
      folder: { id: 12, type: "Folder" },
      computedUrl: `${h.sb.url}/#ST1001A1`,
      workspace: "Default",
    });
    const inProgram = await h.call('/rest/asset/v1/staticLists.json?folder={"id":1007,"type":"Program"}');
    expect(inProgram.result?.map((l) => l.id)).toEqual([1007]);
    expect((await h.call("/rest/v1/lists/1007.json")).result?.[0]?.programName).toBe(
      (await h.call("/rest/asset/v1/program/1007.json")).result?.[0]?.name,
    );

    const created = await h.call(
      "/rest/asset/v1/staticLists.json",
      formInit({ name: "VIP Webinar", folder: '{"id":1003,"type":"Program"}', description: "From the API" }),
    );
    expect(created).toMatchObject({ success: true, errors: [], warnings: [] });
    const list = created.result?.[0] as Record<string, unknown>;
    expect(list).toMatchObject({
      id: 1011,
      name: "VIP Webinar",
      description: "From the API",
      folder: { id: 1003, type: "Program" },
    });
    expect((await h.call("/rest/asset/v1/staticList/byName.json?name=VIP%20Webinar")).result?.[0]?.id).toBe(
      1011,
    );
    expect((await h.call("/rest/v1/lists.json?id=1011")).result?.[0]).toMatchObject({
      name: "VIP Webinar",
      description: "From the API",
    });
    const added = await h.call(
      "/rest/v1/lists/1011/leads.json",
      jsonInit("POST", { input: [{ id: 5 }, { id: 6 }] }),
    );
    expect(added.result?.map((r) => r.status)).toEqual(["added", "added"]);

    const deleted = await h.call("/rest/asset/v1/staticList/1011/delete.json", { method: "POST" });
    expect(deleted).toMatchObject({ success: true, result: [{ id: 1011 }] });
    expect((await h.call("/rest/asset/v1/staticList/1011.json")).warnings).toEqual(NO_ASSETS);
    expect(errorCode(await h.call("/rest/v1/lists/1011.json"))).toBe("1013");
    expect(errorCode(await h.call("/rest/asset/v1/staticList/1011/delete.json", { method: "POST" }))).toBe(
      "702",
    );
  });

  it("refuses a blank name, a duplicate name, a missing parent and a parent of the wrong kind", async () => {
    const create = (body: Record<string, string>) =>
      h.call("/rest/asset/v1/staticLists.json", formInit(body));
    expect(errorCode(await create({ folder: '{"id":12,"type":"Folder"}' }))).toBe("701");
    expect(errorCode(await create({ name: "Beta Testers", folder: '{"id":12,"type":"Folder"}' }))).toBe(
      "709",
    );
    expect(errorCode(await create({ name: "X", folder: '{"id":999,"type":"Folder"}' }))).toBe("710");
    expect(errorCode(await create({ name: "X", folder: '{"id":41,"type":"Folder"}' }))).toBe("711");
    expect(errorCode(await create({ name: "X", folder: "not json" }))).toBe("1003");
    const json = await h.call("/rest/asset/v1/staticLists.json", jsonInit("POST", { name: "X" }));
    expect(errorCode(json)).toBe("612");
  });

  it("will not delete a list a queued bulk export holds", async () => {
    const created = await h.call(
      "/bulk/v1/leads/export/create.json",
      jsonInit("POST", { fields: ["id"], filter: { staticListId: 1008 } }),
    );
    const exportId = created.result?.[0]?.exportId as string;
    await h.call(`/bulk/v1/leads/export/${exportId}/enqueue.json`, { method: "POST" });
    expect(errorCode(await h.call("/rest/asset/v1/staticList/1008/delete.json", { method: "POST" }))).toBe(
      "1022",
    );
    await h.call(`/bulk/v1/leads/export/${exportId}/cancel.json`, { method: "POST" });
    expect((await h.call("/rest/asset/v1/staticList/1008/delete.json", { method: "POST" })).success).toBe(
      true,
    );
  });
});

describe("folders", () => {
  it("walks down from a root to maxDepth, parents first, programs included", async () => {
    const ids = async (query: string) =>
      (await h.call(`/rest/asset/v1/folders.json?maxReturn=200&${query}`)).result?.map(
        (f) => `${(f.folderId as { type: string }).type}:${f.id}`,
      );
    expect(await ids('root={"id":14,"type":"Folder"}&maxDepth=0')).toEqual(["Folder:14"]);
    expect(await ids('root={"id":14,"type":"Folder"}&maxDepth=1')).toEqual(["Folder:14", "Folder:15"]);
    expect(await ids('root={"id":14,"type":"Folder"}')).toEqual([
      "Folder:14",
      "Folder:15",
      "Folder:40",
      "Folder:41",
      "Folder:42",
      "Folder:43",
    ]);
    const deep = await ids('root={"id":43,"type":"Folder"}');
    expect(deep?.[0]).toBe("Folder:43");
    expect(deep?.slice(1).every((id) => id.startsWith("Program:"))).toBe(true);
    expect(await ids('root={"id":3,"type":"Folder"}&workSpace=Elsewhere')).toBeUndefined();
    const all = await h.call("/rest/asset/v1/folders.json?maxReturn=2&offset=2");
    expect(all.result).toHaveLength(2);
  });

  it("finds folders by name and by id, and programs as folders of type Program", async () => {
    const byName = await h.call("/rest/asset/v1/folder/byName.json?name=Campaigns");
    expect(byName.result?.[0]).toMatchObject({
      id: 41,
      folderType: "Marketing Folder",
      parent: { id: 15, type: "Folder" },
      path: "/Marketing Activities/Default/Campaigns",
      url: `${h.sb.url}/#MF41A1`,
    });
    expect((await h.call("/rest/asset/v1/folder/byName.json?name=Nope")).warnings).toEqual(NO_ASSETS);
    const root = await h.call("/rest/asset/v1/folder/14.json?type=Folder");
    expect(root.result?.[0]).toMatchObject({ parent: null, url: null, folderType: "Zone", isSystem: true });
    const program = await h.call("/rest/asset/v1/folder/1002.json?type=Program");
    expect(program.result?.[0]).toMatchObject({
      id: 1002,
      folderType: "Program",
      folderId: { id: 1002, type: "Program" },
    });
    expect(errorCode(await h.call("/rest/asset/v1/folder/14.json"))).toBe("701");
    expect((await h.call("/rest/asset/v1/folder/999.json?type=Folder")).warnings).toEqual(NO_ASSETS);
  });
});

describe("smart lists and smart campaigns", () => {
  it("browses smart lists by folder and returns rules on request", async () => {
    const global = await h.call('/rest/asset/v1/smartLists.json?folder={"id":13,"type":"Folder"}');
    expect(global.result?.map((l) => l.name)).toEqual([
      "Gold Customers",
      "High Lead Score",
      "US Leads",
      "Unsubscribed Leads",
      "Qualified Software Leads",
    ]);
    const plain = await h.call("/rest/asset/v1/smartList/4001.json");
    expect(plain.result?.[0]).not.toHaveProperty("rules");
    const ruled = await h.call("/rest/asset/v1/smartList/4005.json?includeRules=true");
    expect(ruled.result?.[0]?.rules).toMatchObject({
      filterMatchType: "all",
      triggers: [],
      filters: [
        { name: "Lead Status", operator: "is", conditions: [{ values: ["Qualified"], isPrimary: true }] },
        { name: "Industry", operator: "is", conditions: [{ values: ["Software"] }] },
      ],
    });
    const trigger = await h.call("/rest/asset/v1/smartList/5001.json?includeRules=true");
    expect(trigger.result?.[0]).toMatchObject({
      name: "Send Welcome Email",
      rules: { triggers: ["Campaign is Requested"] },
    });
    expect((await h.call("/rest/asset/v1/smartList/byName.json?name=US%20Leads")).result?.[0]?.id).toBe(4003);
    expect((await h.call("/rest/asset/v1/smartList/9.json")).warnings).toEqual(NO_ASSETS);
  });

  it("shows the Lead DB campaigns as smart campaigns, with their smart list and status", async () => {
    const all = await h.call("/rest/asset/v1/smartCampaigns.json");
    expect(all.result?.map((c) => c.id)).toEqual([1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008]);
    expect(all.result?.[0]).toMatchObject({
      type: "trigger",
      status: "Active",
      isActive: true,
      isRequestable: true,
      smartListId: 5001,
      folder: { type: "Program" },
      computedUrl: `${h.sb.url}/#SC1001A1`,
    });
    // Adobe's isRequestable is "active and has a Campaign is Requested trigger": 1004 has the trigger, inactive.
    expect(all.result?.find((c) => c.id === 1004)).toMatchObject({ isActive: false, isRequestable: false });
    const active = await h.call("/rest/asset/v1/smartCampaigns.json?isActive=true");
    expect(active.result?.map((c) => c.id)).toEqual([1001, 1002, 1003, 1008]);
    expect((await h.call("/rest/asset/v1/smartCampaign/1006.json")).result?.[0]?.status).toBe("Never Run");
    await h.call("/rest/v1/campaigns/1006/schedule.json", jsonInit("POST", {}));
    expect((await h.call("/rest/asset/v1/smartCampaign/1006.json")).result?.[0]?.status).toBe("Single Run");
    const byName = await h.call("/rest/asset/v1/smartCampaign/byName.json?name=Data%20Cleanup");
    expect(byName.result?.[0]?.id).toBe(1007);
    expect(errorCode(await h.call("/rest/asset/v1/smartCampaigns.json?isActive=maybe"))).toBe("1003");
  });
});
