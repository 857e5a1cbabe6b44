/**
 * The draft rule of every versioned asset (the lifecycle kit, src/sandbox/marketo/assets/lifecycle.ts):
 * "Updates always apply to the draft and become live only after approval"
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/forms "Approval";
 * landing-pages "Approval", email-templates "Updating an approved version creates a new draft"). For
 * each type: an edit of an approved asset makes a draft and leaves the approved version as it was;
 * discardDraft goes back to the approved version; approveDraft makes the draft the approved version.
 * And the rest of assets.md "Approval" and "Delete": unapprove discards a pending draft; an approved
 * asset must be unapproved before it is deleted, forms excepted.
 */
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

/** A seeded asset of each type that is approved with no draft (src/sandbox/marketo/assets/seed.ts, seed.ts). */
const APPROVED_ONLY = [
  ["form", 1001],
  ["landingPage", 1001],
  ["emailTemplate", 1001],
  ["snippet", 3001],
  ["email", 2002],
] as const;

describe.each(APPROVED_ONLY)("the draft rule of %s %i", (path, id) => {
  const read = async (status: "approved" | "draft") => h.call(`${A}/${path}/${id}.json?status=${status}`);
  const edit = (description: string) => h.call(`${A}/${path}/${id}.json`, formInit({ description }));

  it("an edit of the approved version makes a draft and leaves the approved version as it was", async () => {
    expect((await read("draft")).warnings).toEqual(NO_ASSETS);
    const before = (await read("approved")).result?.[0];
    expect(before).toMatchObject({ status: "approved", description: "" });
    const edited = await edit("Edited in the draft");
    // The update answers the version it wrote: the draft (the forms page's update example is a draft).
    expect(edited.result?.[0]).toMatchObject({ id, status: "draft", description: "Edited in the draft" });
    expect((await read("draft")).result?.[0]).toMatchObject({ description: "Edited in the draft" });
    expect((await read("approved")).result?.[0]).toEqual(before);
    // A plain read still sees the live (approved) version.
    expect((await h.call(`${A}/${path}/${id}.json`)).result?.[0]).toEqual(before);
  });

  it("discardDraft goes back to the approved version", async () => {
    expect((await h.call(`${A}/${path}/${id}/discardDraft.json`, POST)).result).toEqual([{ id }]);
    expect((await read("draft")).warnings).toEqual(NO_ASSETS);
    expect((await read("approved")).result?.[0]).toMatchObject({ status: "approved", description: "" });
  });

  it("approveDraft makes the draft the approved version", async () => {
    await edit("Approved edit");
    expect((await h.call(`${A}/${path}/${id}/approveDraft.json`, POST)).success).toBe(true);
    expect((await read("approved")).result?.[0]).toMatchObject({
      status: "approved",
      description: "Approved edit",
    });
    expect((await read("draft")).warnings).toEqual(NO_ASSETS);
  });
});

describe("unapprove and delete (assets.md Approval, Delete)", () => {
  it("unapprove makes the approved version the draft and discards a pending one", async () => {
    // Landing page 1002 is approved with a pending draft titled "Event Thank You (draft)".
    expect((await h.call(`${A}/landingPage/1002.json?status=draft`)).result?.[0]?.title).toBe(
      "Event Thank You (draft)",
    );
    const unapproved = await h.call(`${A}/landingPage/1002/unapprove.json`, POST);
    expect(unapproved.result?.[0]).toMatchObject({ id: 1002, status: "draft", title: "Event Thank You" });
    expect((await h.call(`${A}/landingPage/1002.json?status=approved`)).warnings).toEqual(NO_ASSETS);
  });

  it("refuses to delete an approved asset until it is unapproved, forms excepted", async () => {
    const refused = await h.call(`${A}/snippet/3003/delete.json`, POST);
    expect(errorCode(refused)).toBe("709");
    // The refusal says what to do; doing it lets the delete through.
    expect(refused.errors?.[0]?.message).toContain("snippet/3003/unapprove.json");
    expect((await h.call(`${A}/snippet/3003/unapprove.json`, POST)).success).toBe(true);
    expect((await h.call(`${A}/snippet/3003/delete.json`, POST)).result).toEqual([{ id: 3003 }]);
    expect(errorCode(await h.call(`${A}/landingPage/1001/delete.json`, POST))).toBe("709");
    expect(errorCode(await h.call(`${A}/email/2003/delete.json`, POST))).toBe("709");
    expect((await h.call(`${A}/form/1002/delete.json`, POST)).result).toEqual([{ id: 1002 }]);
  });

  it("a draft-only asset's refusal to discard names the delete that removes it", async () => {
    const refused = await h.call(`${A}/landingPage/1003/discardDraft.json`, POST);
    expect(errorCode(refused)).toBe("709");
    expect(refused.errors?.[0]?.message).toContain("landingPage/1003/delete.json");
    expect((await h.call(`${A}/landingPage/1003/delete.json`, POST)).result).toEqual([{ id: 1003 }]);
  });
});

describe("a cloned program's emails", () => {
  it("have versions of their own: an edit of the copy leaves the source's draft as it was", async () => {
    const folder = JSON.stringify({ id: 40, type: "Folder" });
    const clone = await h.call(`${A}/program/1001/clone.json`, formInit({ name: "Program copy", folder }));
    const programId = clone.result?.[0]?.id as number;
    const inProgram = async (program: number) =>
      (await h.call(`${A}/emails.json?status=draft&maxReturn=200&folder={"id":${program},"type":"Program"}`))
        .result ?? [];
    const source = (await inProgram(1001))[0] as { id: number; name: string; subject: unknown };
    const copy = (await inProgram(programId)).find((e) => e.name === source.name) as { id: number };
    const subject = JSON.stringify({ type: "Text", value: "Only the copy" });
    expect((await h.call(`${A}/email/${copy.id}/content.json`, formInit({ subject }))).success).toBe(true);
    expect((await h.call(`${A}/email/${source.id}.json?status=draft`)).result?.[0]?.subject).toEqual(
      source.subject,
    );
  });
});
