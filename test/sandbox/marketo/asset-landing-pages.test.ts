/** Landing pages: reads by status and folder, content sections, create from a template, draft edits, approval, clone, delete. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, formInit, type Harness, startHarness } from "../../helpers/marketo-sandbox.js";

const NO_ASSETS = ["No assets found for the given search criteria."];
const A = "/rest/asset/v1";
const POST = { method: "POST" };
const folder = JSON.stringify({ id: 19, type: "Folder" });
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 20 });
});
afterAll(async () => {
  await h.close();
});

describe("landing pages", () => {
  it("browses the seeded pages by status and folder, and reads their sections", async () => {
    expect((await h.call(`${A}/landingPages.json`)).result?.map((p) => [p.id, p.status])).toEqual([
      [1001, "approved"],
      [1002, "approved"],
      [1003, "draft"],
    ]);
    expect((await h.call(`${A}/landingPages.json?status=draft`)).result?.map((p) => p.id)).toEqual([
      1002, 1003,
    ]);
    const inProgram = encodeURIComponent(JSON.stringify({ id: 1003, type: "Program" }));
    expect((await h.call(`${A}/landingPages.json?folder=${inProgram}`)).result).toHaveLength(3);
    expect((await h.call(`${A}/landingPages.json?folder=${encodeURIComponent(folder)}`)).warnings).toEqual(
      NO_ASSETS,
    );
    const content = await h.call(`${A}/landingPage/1002/content.json?status=draft`);
    expect(content.result).toEqual([
      {
        id: "body",
        type: "RichText",
        index: 1,
        content: { content: "<p>Event Thank You (draft)</p>", contentType: "RichText" },
      },
    ]);
    expect((await h.call(`${A}/landingPage/1003.json?status=approved`)).warnings).toEqual(NO_ASSETS);
    const byName = await h.call(`${A}/landingPage/byName.json?name=Event%20Registration`);
    expect(byName.result?.[0]).toMatchObject({ id: 1001, URL: `${h.sb.url}/lp/event-registration.html` });
  });

  it("creates a page from a template; a title edit of an approved page lands in a draft", async () => {
    const created = await h.call(
      `${A}/landingPages.json`,
      formInit({ name: "Spring Offer", folder, template: "1", title: "Spring" }),
    );
    expect(created.result?.[0]).toMatchObject({
      name: "Spring Offer",
      status: "draft",
      title: "Spring",
      template: 1,
    });
    const id = created.result?.[0]?.id as number;
    expect((await h.call(`${A}/landingPage/${id}/approveDraft.json`, POST)).result).toEqual([{ id }]);
    expect(errorCode(await h.call(`${A}/landingPage/${id}/approveDraft.json`, POST))).toBe("709");
    await h.call(`${A}/landingPage/${id}.json`, formInit({ title: "Spring 2", keywords: "spring" }));
    // "Updates apply to the draft and become live only after approval" (landing-pages.md "Approval"):
    // the metadata too, not only the title.
    expect((await h.call(`${A}/landingPage/${id}.json`)).result?.[0]).toMatchObject({
      title: "Spring",
      keywords: "",
    });
    expect((await h.call(`${A}/landingPage/${id}.json?status=draft`)).result?.[0]).toMatchObject({
      title: "Spring 2",
      keywords: "spring",
    });
    expect(
      errorCode(
        await h.call(`${A}/landingPages.json`, formInit({ name: "Spring Offer", folder, template: "1" })),
      ),
    ).toBe("709");
    expect(
      errorCode(
        await h.call(`${A}/landingPages.json`, formInit({ name: "No template", folder, template: "7" })),
      ),
    ).toBe("1003");
    const freeForm = await h.call(
      `${A}/landingPages.json`,
      formInit({ name: "Free", folder, template: "2" }),
    );
    expect((await h.call(`${A}/landingPage/${freeForm.result?.[0]?.id}/content.json`)).warnings).toEqual(
      NO_ASSETS,
    );
  });

  it("unapproves, discards a pending draft, clones and deletes", async () => {
    expect((await h.call(`${A}/landingPage/1001/unapprove.json`, POST)).result?.[0]?.status).toBe("draft");
    expect(errorCode(await h.call(`${A}/landingPage/1001/unapprove.json`, POST))).toBe("709");
    expect(errorCode(await h.call(`${A}/landingPage/1001/discardDraft.json`, POST))).toBe("709");
    expect((await h.call(`${A}/landingPage/1002/discardDraft.json`, POST)).result).toEqual([{ id: 1002 }]);
    expect((await h.call(`${A}/landingPage/1002.json?status=draft`)).warnings).toEqual(NO_ASSETS);
    const clone = await h.call(`${A}/landingPage/1002/clone.json`, formInit({ name: "Thanks copy", folder }));
    expect(clone.result?.[0]).toMatchObject({
      status: "draft",
      title: "Event Thank You",
      folder: { id: 19, type: "Folder" },
    });
    const id = clone.result?.[0]?.id as number;
    expect((await h.call(`${A}/folder/19/content.json?type=Folder`)).result).toContainEqual({
      id,
      type: "LandingPage",
    });
    expect((await h.call(`${A}/landingPage/${id}/delete.json`, POST)).result).toEqual([{ id }]);
    expect((await h.call(`${A}/landingPage/${id}.json`)).warnings).toEqual(NO_ASSETS);
    expect(errorCode(await h.call(`${A}/landingPage/${id}/delete.json`, POST))).toBe("702");
  });
});
