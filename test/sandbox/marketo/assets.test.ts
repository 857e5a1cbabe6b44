import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, type Harness, startHarness } from "../../helpers/marketo-sandbox.js";

const NO_ASSETS = ["No assets found for the given search criteria."];
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 20 });
});
afterAll(async () => {
  await h.close();
});

describe("Marketo sandbox asset API", () => {
  it("pages programs by offset/maxReturn and ends with the no-assets warning and no result", async () => {
    const ids: number[] = [];
    const sizes: number[] = [];
    for (let offset = 0; ; offset += 7) {
      const body = await h.call(`/rest/asset/v1/programs.json?maxReturn=7&offset=${offset}`);
      expect(body).toMatchObject({ success: true, errors: [] });
      expect(body).not.toHaveProperty("nextPageToken");
      if (!body.result) {
        expect(body.warnings).toEqual(NO_ASSETS);
        break;
      }
      expect(body.warnings).toEqual([]);
      sizes.push(body.result.length);
      ids.push(...body.result.map((p) => p.id as number));
    }
    expect(sizes).toEqual([7, 7, 7, 7, 2]);
    expect(new Set(ids).size).toBe(30);
    const first = await h.call("/rest/asset/v1/programs.json");
    expect(first.result).toHaveLength(20);
    expect(first.result?.[0]?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z\+0000$/);
    expect(first.result?.[0]?.folder).toMatchObject({ type: "Folder", value: expect.any(Number) });
    expect(errorCode(await h.call("/rest/asset/v1/programs.json?maxReturn=201"))).toBe("1003");
  });

  it("filters programs and gets one by id with tags", async () => {
    const some = await h.call("/rest/asset/v1/programs.json?filterType=id&filterValues=1003,1005");
    expect(some.result?.map((p) => p.id)).toEqual([1003, 1005]);
    const one = await h.call("/rest/asset/v1/program/1001.json");
    expect(one.result?.[0]).toMatchObject({
      id: 1001,
      type: "Email",
      tags: [expect.objectContaining({ tagType: "Program Owner" })],
    });
    const none = await h.call("/rest/asset/v1/program/9999.json");
    expect(none).toEqual({ success: true, errors: [], requestId: expect.any(String), warnings: NO_ASSETS });
  });

  it("browses emails, finds one by name and reads its content", async () => {
    const all = await h.call("/rest/asset/v1/emails.json?maxReturn=200");
    expect(all.result).toHaveLength(20);
    expect((await h.call("/rest/asset/v1/emails.json?offset=20")).warnings).toEqual(NO_ASSETS);
    const drafts = await h.call("/rest/asset/v1/emails.json?status=draft&maxReturn=200");
    expect(drafts.result?.every((e) => e.status === "draft")).toBe(true);
    const name = all.result?.[2]?.name as string;
    const byName = await h.call(`/rest/asset/v1/email/byName.json?name=${encodeURIComponent(name)}`);
    expect(byName.result?.[0]).toMatchObject({
      id: 2003,
      subject: { type: "Text", value: expect.any(String) },
    });
    expect((await h.call("/rest/asset/v1/email/byName.json?name=Nope")).warnings).toEqual(NO_ASSETS);
    const content = await h.call("/rest/asset/v1/email/2001/content.json");
    expect(content.result?.[0]).toMatchObject({
      htmlId: "edit_text_1",
      value: [{ type: "HTML" }, { type: "Text" }],
    });
  });

  it("approves a draft once, then answers 709 when there is no draft", async () => {
    const html = async (status: string) => {
      const body = await h.call(`/rest/asset/v1/email/2001/content.json?status=${status}`);
      return (body.result?.[0]?.value as { value: string }[] | undefined)?.[0]?.value;
    };
    const pending = await html("draft");
    expect(pending).toContain("new draft");
    const approved = await h.call("/rest/asset/v1/email/2001/approveDraft.json", { method: "POST" });
    expect(approved).toMatchObject({ success: true, errors: [], warnings: [], result: [{ id: 2001 }] });
    expect(await html("approved")).toBe(pending);
    expect(await html("draft")).toBeUndefined();
    const again = await h.call("/rest/asset/v1/email/2001/approveDraft.json", { method: "POST" });
    expect(again).toMatchObject({ success: false, errors: [{ code: "709" }], warnings: [] });
    expect(errorCode(await h.call("/rest/asset/v1/email/9999/approveDraft.json", { method: "POST" }))).toBe(
      "702",
    );
  });
});
