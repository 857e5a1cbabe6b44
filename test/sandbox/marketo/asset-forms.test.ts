/** Forms: reads by status, a form's fields (lead fields), create, update, approve/discard, clone, delete. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, formInit, type Harness, startHarness } from "../../helpers/marketo-sandbox.js";

const NO_ASSETS = ["No assets found for the given search criteria."];
const A = "/rest/asset/v1";
const POST = { method: "POST" };
const folder = JSON.stringify({ id: 1003, type: "Program" });
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 20 });
});
afterAll(async () => {
  await h.close();
});

describe("forms", () => {
  it("reads the seeded forms and their fields, approved and draft", async () => {
    expect((await h.call(`${A}/forms.json`)).result?.map((f) => [f.id, f.status])).toEqual([
      [1001, "approved"],
      [1002, "approved"],
    ]);
    expect((await h.call(`${A}/forms.json?status=draft`)).result?.map((f) => f.id)).toEqual([1002]);
    const ids = async (query: string) =>
      (await h.call(`${A}/form/1002/fields.json${query}`)).result?.map((f) => f.id);
    expect(await ids("")).toEqual(["Email", "FirstName", "LastName"]);
    expect(await ids("?status=draft")).toEqual(["Email", "FirstName", "LastName", "Company"]);
    const email = (await h.call(`${A}/form/1001/fields.json`)).result?.[0];
    expect(email).toMatchObject({ label: "Email Address:", dataType: "email", required: true });
    const all = await h.call(`${A}/form/fields.json?maxReturn=200`);
    expect(all.result?.map((f) => f.id)).toEqual(expect.arrayContaining(["Email", "Company"]));
    expect((await h.call(`${A}/form/byName.json?name=Nope`)).warnings).toEqual(NO_ASSETS);
  });

  it("updates the submit button of a form's draft, leaving the approved version, and refuses a position that is no number", async () => {
    // Update Submit Button (asset.swagger.json updateFormSubmitButtonUsingPOST): trial s27, N365.
    const changed = await h.call(
      `${A}/form/1001/submitButton.json`,
      formInit({
        label: "Get in touch",
        waitingLabel: "Sending…",
        buttonPosition: "140",
        buttonStyle: "simple",
      }),
    );
    expect(changed.result?.[0]).toMatchObject({
      id: 1001,
      status: "draft",
      buttonLabel: "Get in touch",
      waitingLabel: "Sending…",
      buttonLocation: 140,
      buttonStyle: "simple",
    });
    const approved = (await h.call(`${A}/form/1001.json?status=approved`)).result?.[0];
    expect(approved).toMatchObject({
      buttonLabel: "Submit",
      waitingLabel: "Please Wait",
      buttonLocation: 120,
    });
    expect(
      errorCode(await h.call(`${A}/form/1001/submitButton.json`, formInit({ buttonPosition: "left" }))),
    ).toBe("1003");
    expect((await h.call(`${A}/form/1001/discardDraft.json`, POST)).success).toBe(true);
  });

  it("creates a draft form, updates it, approves it; a second approval is a 709", async () => {
    const created = await h.call(`${A}/forms.json`, formInit({ name: "Newsletter", folder, theme: "inset" }));
    expect(created.result?.[0]).toMatchObject({
      name: "Newsletter",
      status: "draft",
      theme: "inset",
      folder: { id: 1003, type: "Program" },
    });
    const id = created.result?.[0]?.id as number;
    expect((await h.call(`${A}/form/${id}/fields.json`)).result?.map((f) => f.id)).toEqual(["Email"]);
    const updated = await h.call(
      `${A}/form/${id}.json`,
      formInit({ name: "Newsletter Signup", progressiveProfiling: "true" }),
    );
    expect(updated.result?.[0]).toMatchObject({ name: "Newsletter Signup", progressiveProfiling: true });
    expect((await h.call(`${A}/form/${id}/approveDraft.json`, POST)).result?.[0]?.status).toBe("approved");
    expect(errorCode(await h.call(`${A}/form/${id}/approveDraft.json`, POST))).toBe("709");
    expect(errorCode(await h.call(`${A}/forms.json`, formInit({ name: "Newsletter Signup", folder })))).toBe(
      "709",
    );
    expect(
      errorCode(
        await h.call(
          `${A}/forms.json`,
          formInit({ name: "Lost", folder: JSON.stringify({ id: 9, type: "Program" }) }),
        ),
      ),
    ).toBe("1003");
  });

  it("discards a pending draft, clones and deletes", async () => {
    expect((await h.call(`${A}/form/1002/discardDraft.json`, POST)).result).toEqual([{ id: 1002 }]);
    expect((await h.call(`${A}/form/1002.json?status=draft`)).warnings).toEqual(NO_ASSETS);
    expect(errorCode(await h.call(`${A}/form/1002/discardDraft.json`, POST))).toBe("709");
    const clone = await h.call(`${A}/form/1001/clone.json`, formInit({ name: "Registration copy", folder }));
    const id = clone.result?.[0]?.id as number;
    expect(clone.result?.[0]).toMatchObject({ status: "draft" });
    expect((await h.call(`${A}/folder/1003/content.json?type=Program&maxReturn=200`)).result).toContainEqual({
      id,
      type: "Form",
    });
    expect((await h.call(`${A}/form/${id}/delete.json`, POST)).result).toEqual([{ id }]);
    expect((await h.call(`${A}/form/${id}.json`)).warnings).toEqual(NO_ASSETS);
  });
});
