/**
 * The email lifecycle: create (a draft), edits landing in the draft, approveDraft, unapprove,
 * discardDraft, clone, delete; full content, variables and sample sends.
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

const folder = JSON.stringify({ id: 1001, type: "Program" });
const subjectOf = async (id: number, status: string) =>
  (await h.call(`${A}/email/${id}.json?status=${status}`)).result?.[0]?.subject;

async function create(name: string): Promise<number> {
  const body = await h.call(
    `${A}/emails.json`,
    formInit({
      name,
      folder,
      template: "1001",
      subject: "First",
      fromName: "Ops",
      fromEmail: "ops@example.com",
    }),
  );
  expect(body.result?.[0]).toMatchObject({ name, status: "draft", folder: { type: "Program", value: 1001 } });
  return body.result?.[0]?.id as number;
}

describe("email lifecycle", () => {
  it("creates a draft email that approveDraft makes the approved version", async () => {
    const id = await create("Lifecycle 1");
    expect(await subjectOf(id, "approved")).toBeUndefined();
    expect(await subjectOf(id, "draft")).toEqual({ type: "Text", value: "First" });
    expect((await h.call(`${A}/email/${id}/approveDraft.json`, POST)).result).toEqual([{ id }]);
    expect(await subjectOf(id, "approved")).toEqual({ type: "Text", value: "First" });
    expect((await h.call(`${A}/email/${id}.json?status=draft`)).warnings).toEqual(NO_ASSETS);
    expect(errorCode(await h.call(`${A}/email/${id}/approveDraft.json`, POST))).toBe("709");
  });

  it("edits an approved email in a new draft, leaving the approved version until approval", async () => {
    const id = await create("Lifecycle 2");
    await h.call(`${A}/email/${id}/approveDraft.json`, POST);
    const subject = JSON.stringify({ type: "Text", value: "Second" });
    expect((await h.call(`${A}/email/${id}/content.json`, formInit({ subject }))).result).toEqual([{ id }]);
    await h.call(
      `${A}/email/${id}/content/edit_text_1.json`,
      formInit({ type: "Text", value: "<p>New body</p>" }),
    );
    expect(await subjectOf(id, "approved")).toEqual({ type: "Text", value: "First" });
    expect(await subjectOf(id, "draft")).toEqual({ type: "Text", value: "Second" });
    const draftHtml = await h.call(`${A}/email/${id}/fullContent.json?status=draft`);
    expect(draftHtml.result?.[0]).toMatchObject({
      id,
      status: "draft",
      content: expect.stringContaining("<p>New body</p>"),
    });
    const text = await h.call(`${A}/email/${id}/fullContent.json?status=draft&type=Text`);
    expect(text.result?.[0]?.content).toBe("New body");
    // discardDraft drops the edit; the approved version is what remains.
    expect((await h.call(`${A}/email/${id}/discardDraft.json`, POST)).result).toEqual([{ id }]);
    expect((await h.call(`${A}/email/${id}.json?status=draft`)).warnings).toEqual(NO_ASSETS);
    expect(errorCode(await h.call(`${A}/email/${id}/discardDraft.json`, POST))).toBe("709");
    expect(
      errorCode(
        await h.call(`${A}/email/${id}/content/edit_text_9.json`, formInit({ type: "Text", value: "x" })),
      ),
    ).toBe("702");
  });

  it("unapproves: the approved version becomes the draft; twice is a 709", async () => {
    const id = await create("Lifecycle 3");
    await h.call(`${A}/email/${id}/approveDraft.json`, POST);
    expect((await h.call(`${A}/email/${id}/unapprove.json`, POST)).result).toEqual([{ id }]);
    expect((await h.call(`${A}/email/${id}.json`)).result?.[0]?.status).toBe("draft");
    expect(errorCode(await h.call(`${A}/email/${id}/unapprove.json`, POST))).toBe("709");
    // A draft-only email cannot discard its draft: deleting it is the way.
    expect(errorCode(await h.call(`${A}/email/${id}/discardDraft.json`, POST))).toBe("709");
  });

  it("updates metadata, refuses a name in use, clones and deletes", async () => {
    const id = await create("Lifecycle 4");
    const updated = await h.call(
      `${A}/email/${id}.json`,
      formInit({ name: "Lifecycle 4b", description: "new", operational: "true" }),
    );
    expect(updated.result?.[0]).toMatchObject({
      name: "Lifecycle 4b",
      description: "new",
      operational: true,
    });
    expect(errorCode(await h.call(`${A}/email/${id}.json`, formInit({ name: "Lifecycle 1" })))).toBe("709");
    const clone = await h.call(`${A}/email/2001/clone.json`, formInit({ name: "Copy of 2001", folder }));
    expect(clone.result?.[0]).toMatchObject({ name: "Copy of 2001", status: "draft" });
    const cloneId = clone.result?.[0]?.id as number;
    expect((await h.call(`${A}/email/${cloneId}/content.json`)).result?.[0]).toBeDefined();
    expect((await h.call(`${A}/email/${id}/delete.json`, POST)).result).toEqual([{ id }]);
    expect((await h.call(`${A}/email/${id}.json`)).warnings).toEqual(NO_ASSETS);
    expect(errorCode(await h.call(`${A}/email/${id}/delete.json`, POST))).toBe("702");
    const badFolder = JSON.stringify({ id: 18, type: "Folder" });
    expect(
      errorCode(await h.call(`${A}/emails.json`, formInit({ name: "X", folder: badFolder, template: "1" }))),
    ).toBe("1003");
  });

  it("reads and sets template variables in the draft", async () => {
    const vars = await h.call(`${A}/email/2002/variables.json`);
    expect(vars.result).toEqual([
      { name: "backgroundColor", value: "#FFFFFF", moduleScope: false },
      { name: "showFooter", value: "true", moduleScope: false },
    ]);
    const set = await h.call(`${A}/email/2002/variable/showFooter.json`, formInit({ value: "false" }));
    expect(set.result).toEqual([{ name: "showFooter", value: "false", moduleScope: false }]);
    const draft = await h.call(`${A}/email/2002/variables.json?status=draft`);
    expect(draft.result?.find((v) => v.name === "showFooter")?.value).toBe("false");
    const approved = await h.call(`${A}/email/2002/variables.json?status=approved`);
    expect(approved.result?.find((v) => v.name === "showFooter")?.value).toBe("true");
    expect(errorCode(await h.call(`${A}/email/2002/variable/nope.json`, formInit({ value: "1" })))).toBe(
      "702",
    );
  });

  it("sends a sample (recorded, nothing leaves the sandbox) and lists the CC fields", async () => {
    const sent = await h.call(
      `${A}/email/2003/sendSample.json`,
      formInit({ emailAddress: "qa@example.com", leadId: "1" }),
    );
    expect(sent.result).toEqual([{ service: "sendTestEmail", result: true }]);
    expect(h.sb.sampleSends()).toEqual([
      expect.objectContaining({ emailId: 2003, emailAddress: "qa@example.com", leadId: 1 }),
    ]);
    expect(
      errorCode(await h.call(`${A}/email/2003/sendSample.json`, formInit({ emailAddress: "nope" }))),
    ).toBe("1003");
    expect(
      errorCode(
        await h.call(
          `${A}/email/2003/sendSample.json`,
          formInit({ emailAddress: "a@b.co", leadId: "99999" }),
        ),
      ),
    ).toBe("1003");
    const cc = await h.call(`${A}/email/ccFields.json`);
    expect(cc.result).toContainEqual(expect.objectContaining({ apiName: "email", objectName: "lead" }));
  });
});
