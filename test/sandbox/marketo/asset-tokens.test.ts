/** My Tokens of programs and folders: read, create-or-update by name, type checks, delete by name and type. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, formInit, type Harness, startHarness } from "../../helpers/marketo-sandbox.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 20 });
});
afterAll(async () => {
  await h.close();
});

const tokensOf = async (id: number, folderType: string) =>
  (await h.call(`/rest/asset/v1/folder/${id}/tokens.json?folderType=${folderType}`)).result?.[0] as {
    folder: { type: string; value: number };
    tokens: { name: string; type: string; value: string; computedUrl: string }[];
  };

const upsert = (id: number, fields: Record<string, string>) =>
  h.call(`/rest/asset/v1/folder/${id}/tokens.json`, formInit(fields));

describe("My Tokens", () => {
  it("reads the seeded tokens of a program and of a folder", async () => {
    const event = await tokensOf(1003, "Program");
    expect(event.folder).toEqual({ type: "Program", value: 1003 });
    expect(event.tokens.map((t) => [t.name, t.type])).toEqual([
      ["Headline", "text"],
      ["Body", "rich text"],
      ["Event Date", "date"],
    ]);
    expect(event.tokens[0]?.computedUrl).toBe(`${h.sb.url}/#NP1003C3`);
    const folder = await tokensOf(40, "Folder");
    expect(folder.tokens).toEqual([expect.objectContaining({ name: "Company Name", value: "Sandbox Inc." })]);
    // folderType defaults to Folder (Swagger: optional), so program 1003 as a folder is not there.
    expect(errorCode(await h.call("/rest/asset/v1/folder/1003/tokens.json"))).toBe("702");
    expect(errorCode(await h.call("/rest/asset/v1/folder/40/tokens.json?folderType=Zone"))).toBe("1003");
  });

  it("creates a token, updates it by name, and reads it back", async () => {
    const created = await upsert(1002, {
      folderType: "Program",
      name: "Offer",
      type: "text",
      value: "10% off",
    });
    expect(created.result?.[0]).toMatchObject({
      folder: { type: "Program", value: 1002 },
      tokens: [{ name: "Offer", type: "text", value: "10% off" }],
    });
    await upsert(1002, { folderType: "Program", name: "Offer", type: "rich text", value: "<b>20% off</b>" });
    const tokens = (await tokensOf(1002, "Program")).tokens;
    expect(tokens.filter((t) => t.name === "Offer")).toEqual([
      expect.objectContaining({ type: "rich text", value: "<b>20% off</b>" }),
    ]);
  });

  it("takes every documented type and refuses values the type cannot hold", async () => {
    const ok: [string, string][] = [
      ["date", "2025-04-01"],
      ["number", "3.5"],
      ["score", "+10"],
      ["sfdc campaign", "Spring Launch"],
      ["text", "x"],
      ["rich text", "<p>x</p>"],
    ];
    for (const [type, value] of ok) {
      const body = await upsert(41, { folderType: "Folder", name: `T ${type}`, type, value });
      expect(body.success, `${type}: ${JSON.stringify(body.errors)}`).toBe(true);
    }
    const bad: [string, string, string][] = [
      ["date", "April 1", "1003"],
      ["number", "ten", "1003"],
      ["score", "lots", "1003"],
      ["iCalendar", "x", "1003"],
    ];
    for (const [type, value, code] of bad) {
      expect(errorCode(await upsert(41, { folderType: "Folder", name: "Bad", type, value })), type).toBe(
        code,
      );
    }
    expect(
      errorCode(await upsert(41, { folderType: "Folder", name: "x".repeat(51), type: "text", value: "v" })),
    ).toBe("1003");
    expect(errorCode(await upsert(41, { name: "No type", type: "text", value: "v" }))).toBe("701");
    expect(errorCode(await upsert(9999, { folderType: "Folder", name: "N", type: "text", value: "v" }))).toBe(
      "702",
    );
  });

  it("deletes a token by name and type, and says when there is none", async () => {
    const del = (fields: Record<string, string>) =>
      h.call("/rest/asset/v1/folder/1004/tokens/delete.json", formInit(fields));
    expect(errorCode(await del({ folderType: "Program", name: "Headline", type: "date" }))).toBe("702");
    const deleted = await del({ folderType: "Program", name: "Headline", type: "text" });
    expect(deleted.result).toEqual([{ id: 1004 }]);
    expect((await tokensOf(1004, "Program")).tokens.map((t) => t.name)).not.toContain("Headline");
    expect(errorCode(await del({ folderType: "Program", name: "Headline", type: "text" }))).toBe("702");
  });
});
