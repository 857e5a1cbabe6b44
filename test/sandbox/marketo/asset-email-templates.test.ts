/** Email templates: reads by status, multipart create and content update, approval, use by emails, clone, delete. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, formInit, type Harness, startHarness } from "../../helpers/marketo-sandbox.js";

const NO_ASSETS = ["No assets found for the given search criteria."];
const A = "/rest/asset/v1";
const POST = { method: "POST" };
const folder = JSON.stringify({ id: 18, type: "Folder" });
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 20 });
});
afterAll(async () => {
  await h.close();
});

function templateForm(fields: Record<string, string>, html: string): RequestInit {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set("content", new Blob([html], { type: "text/html" }), "template.html");
  return { method: "POST", body: form };
}

describe("email templates", () => {
  it("lists the seeded templates, the ones the seeded emails use", async () => {
    const all = await h.call(`${A}/emailTemplates.json`);
    expect(all.result?.map((t) => [t.id, t.name, t.status])).toEqual([
      [1001, "Basic One Column", "approved"],
      [1002, "Newsletter Two Column", "approved"],
      [1003, "Event Invitation", "approved"],
    ]);
    expect((await h.call(`${A}/emailTemplates.json?status=draft`)).result?.map((t) => t.id)).toEqual([1003]);
    const usedBy = await h.call(`${A}/emailTemplates/1001/usedBy.json?maxReturn=200`);
    const emails = await h.call(`${A}/emails.json?maxReturn=200`);
    expect(usedBy.result?.map((e) => e.id)).toEqual(
      emails.result?.filter((e) => e.template === 1001).map((e) => e.id),
    );
    expect(usedBy.result?.[0]).toMatchObject({
      type: "Email",
      status: expect.stringMatching(/approved|draft/),
    });
    const draft = await h.call(`${A}/emailTemplate/1003/content?status=draft`);
    expect(draft.result?.[0]).toMatchObject({
      id: 1003,
      status: "draft",
      content: expect.stringContaining("<p>v2</p>"),
    });
    expect((await h.call(`${A}/emailTemplate/byName.json?name=Nope`)).warnings).toEqual(NO_ASSETS);
  });

  it("creates a template from a multipart body, updates its content in the draft, approves it", async () => {
    const created = await h.call(
      `${A}/emailTemplates.json`,
      templateForm({ name: "Promo", folder }, "<html>v1</html>"),
    );
    expect(created.result?.[0]).toMatchObject({
      name: "Promo",
      status: "draft",
      folder: { id: 18, type: "Folder" },
    });
    const id = created.result?.[0]?.id as number;
    expect((await h.call(`${A}/emailTemplate/${id}/approveDraft.json`, POST)).result?.[0]?.status).toBe(
      "approved",
    );
    await h.call(`${A}/emailTemplate/${id}/content.json`, templateForm({}, "<html>v2</html>"));
    expect((await h.call(`${A}/emailTemplate/${id}/content`)).result?.[0]?.content).toBe("<html>v1</html>");
    expect((await h.call(`${A}/emailTemplate/${id}/content?status=draft`)).result?.[0]?.content).toBe(
      "<html>v2</html>",
    );
    expect(
      errorCode(await h.call(`${A}/emailTemplates.json`, templateForm({ name: "Promo", folder }, "x"))),
    ).toBe("709");
    const wrongFolder = JSON.stringify({ id: 41, type: "Folder" });
    expect(
      errorCode(
        await h.call(`${A}/emailTemplates.json`, templateForm({ name: "Y", folder: wrongFolder }, "x")),
      ),
    ).toBe("1003");
    // A form body is refused: the operation consumes multipart/form-data.
    expect(
      errorCode(await h.call(`${A}/emailTemplates.json`, formInit({ name: "Z", folder, content: "x" }))),
    ).toBe("612");
  });

  it("lets an email name only a template that exists", async () => {
    const program = JSON.stringify({ id: 1001, type: "Program" });
    const missing = await h.call(
      `${A}/emails.json`,
      formInit({ name: "No template", folder: program, template: "4242" }),
    );
    expect(errorCode(missing)).toBe("1003");
    expect(missing.errors?.[0]?.message).toContain("emailTemplates.json");
  });

  it("refuses to unapprove or delete a template approved emails use, and deletes an unused one", async () => {
    expect(errorCode(await h.call(`${A}/emailTemplate/1001/unapprove.json`, POST))).toBe("709");
    expect(errorCode(await h.call(`${A}/emailTemplate/1001/delete.json`, POST))).toBe("1022");
    const clone = await h.call(
      `${A}/emailTemplate/1002/clone.json`,
      formInit({ name: "Copy of 1002", folder }),
    );
    const id = clone.result?.[0]?.id as number;
    expect(clone.result?.[0]).toMatchObject({ status: "draft" });
    expect(errorCode(await h.call(`${A}/emailTemplate/${id}/discardDraft.json`, POST))).toBe("709");
    expect((await h.call(`${A}/emailTemplate/${id}/delete.json`, POST)).result).toEqual([{ id }]);
    expect((await h.call(`${A}/emailTemplate/${id}.json`)).warnings).toEqual(NO_ASSETS);
  });

  it("unapproves a template once the approved emails using it are unapproved, as its refusal says", async () => {
    const refused = await h.call(`${A}/emailTemplate/1002/unapprove.json`, POST);
    expect(refused.errors?.[0]?.message).toContain("unapprove them first");
    const users = await h.call(`${A}/emailTemplates/1002/usedBy.json?maxReturn=200`);
    for (const email of users.result?.filter((e) => e.status === "approved") ?? []) {
      expect((await h.call(`${A}/email/${email.id}/unapprove.json`, POST)).success).toBe(true);
    }
    expect((await h.call(`${A}/emailTemplate/1002/unapprove.json`, POST)).result?.[0]?.status).toBe("draft");
  });

  it("discards a pending draft and renames", async () => {
    expect((await h.call(`${A}/emailTemplate/1003/discardDraft.json`, POST)).result).toEqual([{ id: 1003 }]);
    expect((await h.call(`${A}/emailTemplate/1003.json?status=draft`)).warnings).toEqual(NO_ASSETS);
    const renamed = await h.call(`${A}/emailTemplate/1003.json`, formInit({ name: "Event Invite" }));
    expect(renamed.result?.[0]).toMatchObject({ name: "Event Invite", status: "approved" });
  });
});
