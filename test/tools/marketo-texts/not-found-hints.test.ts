import { describe, expect, it } from "vitest";
import { marketoOverMcp } from "../../helpers/marketo-mcp.js";

/**
 * Agent trial s4 (T08, T10, T20), through MCP on the sandbox: a blank folder's refusal gives the folder's
 * JSON shape and how to find its id, which done as said creates the list; a lead or program read by an id
 * nothing has says that it does not exist, and the call it names works.
 */
interface Answer {
  result: Record<string, unknown>[];
  warnings: string[];
}
type Args = Record<string, unknown>;

const mkto = marketoOverMcp({});
async function call(args: Args) {
  const { result, text, data } = await mkto.call<Answer>(args);
  return { isError: result.isError === true, text, data };
}

describe("a blank folder", () => {
  it("is refused with the folder's shape and the by-name call, which done as said creates the list", async () => {
    const create = { method: "POST", endpoint: "/rest/asset/v1/staticLists.json" };
    const refused = await call({ ...create, body: { name: "Canada Directors - Dec Nurture" } });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('{"id":12,"type":"Folder"}');
    const byName = /GET (\/rest\/asset\/v1\/folder\/byName\.json) with query_parameters (\{[^}]+\})/.exec(
      refused.text,
    );
    expect(byName, refused.text).not.toBeNull();
    const found = await call({
      method: "GET",
      endpoint: byName?.[1],
      query_parameters: JSON.parse(byName?.[2] ?? "{}"),
    });
    expect(found.isError, found.text).toBe(false);
    const folder = found.data.result[0] as { id: number; folderId: { type: string } };
    const made = await call({
      ...create,
      body: { name: "Canada Directors - Dec Nurture", folder: { id: folder.id, type: folder.folderId.type } },
    });
    expect(made.isError, made.text).toBe(false);
    expect(made.data.result[0]).toMatchObject({
      name: "Canada Directors - Dec Nurture",
      folder: { id: folder.id },
    });
  });
});

describe("a read by an id nothing has", () => {
  it("GET lead/{id}.json says no lead has that id, and the deleted leads call it names works", async () => {
    const missing = await call({ method: "GET", endpoint: "/rest/v1/lead/50231.json" });
    expect(missing.isError, missing.text).toBe(false);
    expect(missing.text).toContain("no lead has id 50231 in this instance");
    const deleted = /GET (\/rest\/v1\/activities\/deletedleads\.json)/.exec(missing.text)?.[1];
    const since = new Date(Date.now() - 7 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    const read = await call({ method: "GET", endpoint: deleted, query_parameters: { sinceDatetime: since } });
    expect(read.isError, read.text).toBe(false);
    const present = await call({ method: "GET", endpoint: "/rest/v1/lead/5.json" });
    expect(present.data.result).toHaveLength(1);
    expect(present.text).not.toContain("no lead has id");
  });

  it("GET program/{id}.json says the program does not exist, and the programs call it names lists the others", async () => {
    const missing = await call({ method: "GET", endpoint: "/rest/asset/v1/program/1187.json" });
    expect(missing.isError, missing.text).toBe(false);
    expect(missing.text).toContain("program 1187 does not exist in this instance");
    const list = /GET (\/rest\/asset\/v1\/programs\.json)/.exec(missing.text)?.[1];
    const programs = await call({ method: "GET", endpoint: list, query_parameters: { maxReturn: 200 } });
    const ids = programs.data.result.map((program) => program.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).not.toContain(1187);
    const present = await call({ method: "GET", endpoint: "/rest/asset/v1/program/1001.json" });
    expect(present.text).not.toContain("does not exist");
  });

  it("GET email/{id}.json with a status it lacks says so, and the other status it names finds the email (trial s22, N261)", async () => {
    const emails = await call({
      method: "GET",
      endpoint: "/rest/asset/v1/emails.json",
      query_parameters: { status: "draft", maxReturn: 200 },
    });
    const approved = await call({
      method: "GET",
      endpoint: "/rest/asset/v1/emails.json",
      query_parameters: { status: "approved", maxReturn: 200 },
    });
    const ids = (answer: typeof emails) => answer.data.result.map((email) => Number(email.id));
    const draftOnly = ids(emails).find((id) => !ids(approved).includes(id));
    expect(draftOnly).toBeDefined();
    const missing = await call({
      method: "GET",
      endpoint: `/rest/asset/v1/email/${draftOnly}.json`,
      query_parameters: { status: "approved" },
    });
    expect(missing.text).toContain(`email ${draftOnly} has no approved version, or does not exist`);
    expect(missing.text).toContain("ask again with status draft, or without status");
    const draft = await call({
      method: "GET",
      endpoint: `/rest/asset/v1/email/${draftOnly}.json`,
      query_parameters: { status: "draft" },
    });
    expect(ids(draft)).toEqual([draftOnly]);
    // A content read alike (trial s22, N271: a snippet with no draft answered only Marketo's warning).
    const content = "/rest/asset/v1/snippet/3001/content.json";
    const noDraft = await call({ method: "GET", endpoint: content, query_parameters: { status: "draft" } });
    expect(noDraft.text).toContain("snippet 3001 has no draft version, or does not exist");
    const live = await call({ method: "GET", endpoint: content, query_parameters: { status: "approved" } });
    expect(live.data.result.length).toBeGreaterThan(0);
  });

  it("an empty program's folder contents says it holds no assets or does not exist, and the read it names tells which (trial s24, N315)", async () => {
    // A program with no assets of its own: its contents come back empty, as a missing id's would.
    let empty: number | undefined;
    for (let id = 1030; id > 1000 && empty === undefined; id -= 1) {
      const contents = await call({
        method: "GET",
        endpoint: `/rest/asset/v1/folder/${id}/content.json`,
        query_parameters: { type: "Program" },
      });
      if (contents.data.result.length === 0) empty = id;
    }
    expect(empty).toBeDefined();
    const contents = await call({
      method: "GET",
      endpoint: `/rest/asset/v1/folder/${empty}/content.json`,
      query_parameters: { type: "Program" },
    });
    expect(contents.text).toContain(`program ${empty} holds no assets, or does not exist`);
    expect(contents.text).not.toContain("does not exist in this instance");
    const read = /GET (\/rest\/asset\/v1\/program\/\d+\.json) tells which/.exec(contents.text)?.[1];
    const program = await call({ method: "GET", endpoint: read });
    expect(program.data.result).toHaveLength(1);
  });
});
