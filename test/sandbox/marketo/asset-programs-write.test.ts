/** Program writes: create, update, clone (with tokens and emails), approve/unapprove, delete, browse by tag. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, formInit, type Harness, startHarness } from "../../helpers/marketo-sandbox.js";

const NO_ASSETS = ["No assets found for the given search criteria."];
const A = "/rest/asset/v1";
const POST = { method: "POST" };
const folder = JSON.stringify({ id: 41, type: "Folder" });
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 20 });
});
afterAll(async () => {
  await h.close();
});

const create = (fields: Record<string, string>) =>
  h.call(`${A}/programs.json`, formInit({ folder, type: "Default", channel: "Content", ...fields }));

describe("program writes", () => {
  it("creates a program in a marketing folder, checking type, channel and folder", async () => {
    const body = await create({
      name: "Spring Launch",
      tags: JSON.stringify([{ tagType: "Program Owner", tagValue: "Ops" }]),
    });
    expect(body.result?.[0]).toMatchObject({
      name: "Spring Launch",
      type: "Default",
      channel: "Content",
      folder: { type: "Folder", value: 41, folderName: "Campaigns" },
      tags: [{ tagType: "Program Owner", tagValue: "Ops" }],
      costs: [],
    });
    const id = body.result?.[0]?.id as number;
    expect((await h.call(`${A}/program/${id}.json`)).result?.[0]?.name).toBe("Spring Launch");
    expect(errorCode(await create({ name: "Spring Launch" }))).toBe("709");
    expect(errorCode(await create({ name: "Bad type", type: "Blog" }))).toBe("1003");
    const badChannel = await create({ name: "Bad channel", channel: "Email Blast" });
    expect(errorCode(badChannel)).toBe("1003");
    expect(badChannel.errors?.[0]?.message).toContain("Content");
    const listFolder = JSON.stringify({ id: 12, type: "Folder" });
    expect(errorCode(await create({ name: "Wrong tree", folder: listFolder }))).toBe("1003");
    expect(errorCode(await create({ name: "Costly", costs: '[{"startDate":"2025-01-01","cost":1}]' }))).toBe(
      "1003",
    );
    const email = await h.call(
      `${A}/programs.json`,
      formInit({ name: "Blast", folder, type: "Email", channel: "Email Blast" }),
    );
    expect(email.result?.[0]).toMatchObject({ type: "Email", status: "unlocked" });
  });

  it("updates name, description and tags (same type replaced)", async () => {
    const updated = await h.call(
      `${A}/program/1002.json`,
      formInit({
        name: "Renamed 1002",
        description: "new",
        tags: JSON.stringify([{ tagType: "Program Owner", tagValue: "Sales" }]),
      }),
    );
    expect(updated.result?.[0]).toMatchObject({
      name: "Renamed 1002",
      description: "new",
      tags: [{ tagType: "Program Owner", tagValue: "Sales" }],
    });
    expect(errorCode(await h.call(`${A}/program/1002.json`, formInit({ name: "Event Program 03" })))).toBe(
      "709",
    );
    expect(errorCode(await h.call(`${A}/program/9999.json`, formInit({ name: "x" })))).toBe("702");
  });

  it("clones a program with its My Tokens and emails", async () => {
    const clone = await h.call(
      `${A}/program/1001/clone.json`,
      formInit({ name: "Email Program 01 copy", folder }),
    );
    const id = clone.result?.[0]?.id as number;
    expect(clone.result?.[0]).toMatchObject({ type: "Email", folder: { value: 41 } });
    const tokens = await h.call(`${A}/folder/${id}/tokens.json?folderType=Program`);
    expect(tokens.result?.[0]?.tokens).toHaveLength(2);
    const source = await h.call(
      `${A}/emails.json?maxReturn=200&folder=${encodeURIComponent(JSON.stringify({ id: 1001, type: "Program" }))}`,
    );
    const copied = await h.call(
      `${A}/emails.json?maxReturn=200&folder=${encodeURIComponent(JSON.stringify({ id, type: "Program" }))}`,
    );
    expect(copied.result?.map((e) => e.name)).toEqual(source.result?.map((e) => e.name));
  });

  it("approves an email program with an approved email, and unapproves it", async () => {
    expect(errorCode(await h.call(`${A}/program/1002/approve.json`, POST))).toBe("709");
    expect((await h.call(`${A}/program/1001/approve.json`, POST)).result).toEqual([{ id: 1001 }]);
    expect((await h.call(`${A}/program/1001.json`)).result?.[0]?.status).toBe("locked");
    expect(errorCode(await h.call(`${A}/program/1001/approve.json`, POST))).toBe("709");
    expect((await h.call(`${A}/program/1001/unapprove.json`, POST)).result).toEqual([{ id: 1001 }]);
    expect((await h.call(`${A}/program/1001.json`)).result?.[0]?.status).toBe("unlocked");
    expect(errorCode(await h.call(`${A}/program/1001/unapprove.json`, POST))).toBe("709");
    const empty = await h.call(
      `${A}/programs.json`,
      formInit({ name: "No emails", folder, type: "Email", channel: "Email Blast" }),
    );
    const emptyId = empty.result?.[0]?.id as number;
    expect(errorCode(await h.call(`${A}/program/${emptyId}/approve.json`, POST))).toBe("709");
  });

  it("deletes a program with what it holds", async () => {
    expect((await h.call(`${A}/program/1006/delete.json`, POST)).result).toEqual([{ id: 1006 }]);
    expect((await h.call(`${A}/program/1006.json`)).warnings).toEqual(NO_ASSETS);
    expect((await h.call(`${A}/staticList/1006.json`)).warnings).toEqual(NO_ASSETS);
    const emails = await h.call(
      `${A}/emails.json?folder=${encodeURIComponent(JSON.stringify({ id: 1006, type: "Program" }))}`,
    );
    expect(emails.warnings).toEqual(NO_ASSETS);
    expect(errorCode(await h.call(`${A}/folder/1006/tokens.json?folderType=Program`))).toBe("702");
    expect(errorCode(await h.call(`${A}/program/1006/delete.json`, POST))).toBe("702");
  });

  it("browses programs by tag", async () => {
    await create({
      name: "Tagged",
      tags: JSON.stringify([{ tagType: "Program Owner", tagValue: "Unique Owner" }]),
    });
    const byTag = await h.call(`${A}/program/byTag.json?tagType=Program%20Owner&tagValue=Unique%20Owner`);
    expect(byTag.result?.map((p) => p.name)).toEqual(["Tagged"]);
    expect(
      (await h.call(`${A}/program/byTag.json?tagType=Program%20Owner&tagValue=Nobody`)).warnings,
    ).toEqual(NO_ASSETS);
    expect(errorCode(await h.call(`${A}/program/byTag.json?tagType=Program%20Owner`))).toBe("701");
  });
});
