/** Folder writes and contents; snippets and their draft/approved versions; channels, tag types, segmentations. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, formInit, type Harness, startHarness } from "../../helpers/marketo-sandbox.js";

const NO_ASSETS = ["No assets found for the given search criteria."];
const A = "/rest/asset/v1";
const POST = { method: "POST" };
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 20 });
});
afterAll(async () => {
  await h.close();
});

const parent = (id: number) => JSON.stringify({ id, type: "Folder" });

describe("folders", () => {
  it("creates, renames (paths follow), archives and deletes an empty folder", async () => {
    const created = await h.call(
      `${A}/folders.json`,
      formInit({ name: "Q3", parent: parent(15), description: "d" }),
    );
    expect(created.result?.[0]).toMatchObject({
      name: "Q3",
      folderType: "Marketing Folder",
      parent: { id: 15, type: "Folder" },
      path: "/Marketing Activities/Default/Q3",
    });
    const id = created.result?.[0]?.id as number;
    const child = await h.call(`${A}/folders.json`, formInit({ name: "Webinars", parent: parent(id) }));
    const childId = child.result?.[0]?.id as number;
    expect(errorCode(await h.call(`${A}/folders.json`, formInit({ name: "Q3", parent: parent(15) })))).toBe(
      "709",
    );
    expect(errorCode(await h.call(`${A}/folders.json`, formInit({ name: "X", parent: parent(9999) })))).toBe(
      "1003",
    );
    const renamed = await h.call(
      `${A}/folder/${id}.json`,
      formInit({ type: "Folder", name: "Q3 2025", isArchive: "true" }),
    );
    expect(renamed.result?.[0]).toMatchObject({
      name: "Q3 2025",
      isArchive: true,
      path: "/Marketing Activities/Default/Q3 2025",
    });
    expect((await h.call(`${A}/folder/${childId}.json?type=Folder`)).result?.[0]?.path).toBe(
      "/Marketing Activities/Default/Q3 2025/Webinars",
    );
    const deleteIt = () => h.call(`${A}/folder/${id}/delete.json`, formInit({ type: "Folder" }));
    expect(errorCode(await deleteIt())).toBe("709");
    await h.call(`${A}/folder/${childId}/delete.json`, formInit({ type: "Folder" }));
    expect((await deleteIt()).result).toEqual([{ id }]);
    expect((await h.call(`${A}/folder/${id}.json?type=Folder`)).warnings).toEqual(NO_ASSETS);
  });

  it("refuses to change or delete system folders, and sends programs to the program endpoints", async () => {
    expect(errorCode(await h.call(`${A}/folder/14.json`, formInit({ type: "Folder", name: "x" })))).toBe(
      "709",
    );
    expect(errorCode(await h.call(`${A}/folder/12/delete.json`, formInit({ type: "Folder" })))).toBe("709");
    const program = await h.call(`${A}/folder/1001/delete.json`, formInit({ type: "Program" }));
    expect(program.errors?.[0]?.message).toContain("/program/{id}/delete.json");
    expect(errorCode(await h.call(`${A}/folder/40/delete.json`, formInit({})))).toBe("701");
  });

  it("lists what a program and a folder hold", async () => {
    const inProgram = await h.call(`${A}/folder/1006/content.json?type=Program&maxReturn=200`);
    expect(inProgram.result).toEqual(
      expect.arrayContaining([
        { id: 1006, type: "StaticList" },
        { id: expect.any(Number), type: "Email" },
      ]),
    );
    const inCampaigns = await h.call(`${A}/folder/1001/content.json?type=Program`);
    expect(inCampaigns.result).toContainEqual({ id: 1001, type: "SmartCampaign" });
    const folder = await h.call(`${A}/folder/40/content.json?type=Folder&maxReturn=200`);
    expect(folder.result?.every((i) => i.type === "Program")).toBe(true);
    const lists = await h.call(`${A}/folder/12/content.json?type=Folder`);
    expect(lists.result?.map((i) => i.id)).toEqual([1001, 1002, 1003, 1004, 1005]);
    expect(errorCode(await h.call(`${A}/folder/12/content.json`))).toBe("701");
    expect(errorCode(await h.call(`${A}/folder/9999/content.json?type=Folder`))).toBe("702");
  });
});

describe("snippets", () => {
  it("browses and reads the seeded snippets by status", async () => {
    expect((await h.call(`${A}/snippets.json`)).result?.map((s) => [s.id, s.status])).toEqual([
      [3001, "approved"],
      [3002, "approved"],
      [3003, "approved"],
      [3004, "draft"],
    ]);
    expect((await h.call(`${A}/snippets.json?status=draft`)).result?.map((s) => s.id)).toEqual([3002, 3004]);
    expect((await h.call(`${A}/snippet/3004.json?status=approved`)).warnings).toEqual(NO_ASSETS);
    const content = await h.call(`${A}/snippet/3002/content.json?status=draft`);
    expect(content.result).toEqual([
      { type: "HTML", content: '<div class="snippet">Signature - Sales</div> v2' },
    ]);
  });

  it("creates a snippet, edits its content, approves, unapproves, clones and deletes it", async () => {
    const folder = JSON.stringify({ id: 17, type: "Folder" });
    const created = await h.call(`${A}/snippets.json`, formInit({ name: "Header", folder }));
    expect(created.result?.[0]).toMatchObject({
      status: "draft",
      folder: { value: 17, type: "Folder", folderName: "Default" },
    });
    const id = created.result?.[0]?.id as number;
    expect(errorCode(await h.call(`${A}/snippets.json`, formInit({ name: "Header", folder })))).toBe("709");
    await h.call(`${A}/snippet/${id}/content.json`, formInit({ type: "Text", content: "Hello" }));
    const approved = await h.call(`${A}/snippet/${id}/approveDraft.json`, POST);
    expect(approved.result?.[0]).toMatchObject({ id, status: "approved" });
    expect((await h.call(`${A}/snippet/${id}/content.json`)).result).toEqual([
      { type: "Text", content: "Hello" },
    ]);
    expect(errorCode(await h.call(`${A}/snippet/${id}/approveDraft.json`, POST))).toBe("709");
    expect(errorCode(await h.call(`${A}/snippet/${id}/discardDraft.json`, POST))).toBe("709");
    const updated = await h.call(
      `${A}/snippet/${id}.json`,
      formInit({ name: "Header v2", description: "top" }),
    );
    expect(updated.result?.[0]).toMatchObject({ name: "Header v2", description: "top" });
    expect((await h.call(`${A}/snippet/${id}/unapprove.json`, POST)).result?.[0]?.status).toBe("draft");
    expect(errorCode(await h.call(`${A}/snippet/${id}/unapprove.json`, POST))).toBe("709");
    const clone = await h.call(`${A}/snippet/${id}/clone.json`, formInit({ name: "Header copy", folder }));
    const cloneId = clone.result?.[0]?.id as number;
    expect((await h.call(`${A}/snippet/${cloneId}/content.json`)).result?.[0]?.content).toBe("Hello");
    expect((await h.call(`${A}/snippet/${id}/delete.json`, POST)).result).toEqual([{ id }]);
    expect((await h.call(`${A}/snippet/${id}.json`)).warnings).toEqual(NO_ASSETS);
  });

  it("discards a pending draft, keeping the approved version", async () => {
    expect((await h.call(`${A}/snippet/3002/discardDraft.json`, POST)).result).toEqual([{ id: 3002 }]);
    expect((await h.call(`${A}/snippet/3002.json?status=draft`)).warnings).toEqual(NO_ASSETS);
    expect((await h.call(`${A}/snippet/3002.json`)).result?.[0]?.status).toBe("approved");
  });
});

describe("channels, tag types and segmentations", () => {
  it("lists channels with their progression statuses, the ones program create accepts", async () => {
    const channels = await h.call(`${A}/channels.json`);
    expect(channels.result?.map((c) => [c.name, c.applicableProgramType])).toEqual([
      ["Email Blast", "email"],
      ["Content", "program"],
      ["Webinar", "event"],
      ["Nurture", "nurture"],
    ]);
    const webinar = await h.call(`${A}/channel/byName.json?name=Webinar`);
    expect(webinar.result?.[0]?.progressionStatuses).toContainEqual(
      expect.objectContaining({ name: "Attended", success: true }),
    );
    expect((await h.call(`${A}/channel/byName.json?name=Nope`)).warnings).toEqual(NO_ASSETS);
  });

  it("lists the tag type and the values in use", async () => {
    expect((await h.call(`${A}/tagTypes.json`)).result).toEqual([
      { tagType: "Program Owner", applicableProgramTypes: "Program,Event,Email,Engagement", required: false },
    ]);
    const byName = await h.call(`${A}/tagType/byName.json?name=Program%20Owner`);
    expect(byName.result?.[0]?.allowableValues).toBe("Demand Gen,Field Marketing,Marketing Ops");
  });

  it("lists segmentations by status and their segments", async () => {
    expect((await h.call(`${A}/segmentation.json`)).result?.map((s) => s.name)).toEqual([
      "Region",
      "Industry",
    ]);
    expect((await h.call(`${A}/segmentation.json?status=approved`)).result?.map((s) => s.id)).toEqual([1001]);
    const segments = await h.call(`${A}/segmentation/1001/segments.json`);
    expect(segments.result?.map((s) => s.name)).toEqual(["North America", "EMEA", "Default"]);
    expect((await h.call(`${A}/segmentation/1002/segments.json?status=approved`)).warnings).toEqual(
      NO_ASSETS,
    );
  });
});
