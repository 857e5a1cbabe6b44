import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ValidationError } from "../../../src/errors.js";
import {
  connector,
  identity,
  ORIGIN,
  ok,
  type Recorded,
  recordingFetch,
} from "../../helpers/marketo-connector.js";

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe("a bulk import's file", () => {
  it("goes as the one `file` part of a multipart/form-data body that a form parser reads back whole", async () => {
    const log: Recorded[] = [];
    identity();
    nock(ORIGIN)
      .post("/bulk/v1/leads.json")
      .query({ format: "csv", listId: "7" })
      .reply(200, ok([{ batchId: 1 }]));
    const marketo = connector({}, { fetch: recordingFetch(log) });
    // Content that looks like a part boundary must not end the part early.
    const content = 'email,note\na@example.com,"--x\r\nContent-Disposition: form-data"\n';
    await marketo.request({
      method: "POST",
      path: "/bulk/v1/leads.json",
      query: { format: "csv", listId: 7 },
      file: { name: "import.csv", content, contentType: "text/csv" },
    });
    const sent = log.at(-1) as Recorded;
    expect(sent.url).toBe(`${ORIGIN}/bulk/v1/leads.json?format=csv&listId=7`);
    const type = sent.headers["content-type"] ?? "";
    expect(type).toMatch(/^multipart\/form-data; boundary=----martech-steps-[0-9a-f-]{36}$/);
    const form = await new Response(sent.body, { headers: { "content-type": type } }).formData();
    expect([...form.keys()]).toEqual(["file"]);
    const file = form.get("file") as File;
    expect(file.name).toBe("import.csv");
    expect(file.type).toBe("text/csv");
    expect(await file.text()).toBe(content);
  });

  it("is refused with GET, DELETE or beside a body, before anything is sent", async () => {
    const marketo = connector({}, { fetch: () => Promise.reject(new Error("nothing may be sent")) });
    const file = { name: "import.csv", content: "email\na@b.co", contentType: "text/csv" };
    for (const req of [
      { method: "GET" as const, path: "/bulk/v1/leads.json", file },
      { method: "DELETE" as const, path: "/bulk/v1/leads.json", file },
      { method: "POST" as const, path: "/bulk/v1/leads.json", body: { a: 1 }, file },
    ]) {
      await expect(marketo.request(req)).rejects.toBeInstanceOf(ValidationError);
    }
  });
});
