import nock from "nock";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PermissionError, UpstreamError } from "../../../src/errors.js";
import { connector, fail, identity, ORIGIN, ok, rejection } from "../../helpers/marketo-connector.js";

beforeAll(() => nock.disableNetConnect());
beforeEach(() => {
  identity();
});
afterEach(() => nock.cleanAll());

const get = (path = "/rest/v1/leads.json") => connector().request({ method: "GET", path });

describe("Marketo envelope", () => {
  it("maps success:false 603 to PermissionError naming the role permission and the IP allowlist", async () => {
    nock(ORIGIN).get("/rest/v1/leads.json").reply(200, fail("603", "Access denied"));
    const error = await rejection(get());
    expect(error).toBeInstanceOf(PermissionError);
    expect(error.message).toMatch(/Read-Only Lead/);
    expect(error.message).toMatch(/allowlist/);
  });

  it("maps 610 to UpstreamError with the service code and the REST reference link", async () => {
    nock(ORIGIN).get("/rest/v1/nothing.json").reply(200, fail("610", "Requested resource not found"));
    const error = await rejection(get("/rest/v1/nothing.json"));
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).serviceCode).toBe("610");
    expect(error.message).toContain("https://developer.adobe.com/marketo-apis/api/mapi/");
  });

  it.each([
    ["605", /HTTP method/],
    ["609", /valid JSON/],
    ["612", /JSON object body/],
    ["1003", /Correct the value the message names/],
  ])("maps %s to UpstreamError with a next step", async (code, next) => {
    nock(ORIGIN).get("/rest/v1/leads.json").reply(200, fail(code, "refused"));
    const error = await rejection(get());
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).serviceCode).toBe(code);
    expect(error.message).toMatch(next);
  });

  it("returns skipped records with their input index instead of throwing or dropping them", async () => {
    nock(ORIGIN)
      .post("/rest/v1/leads.json")
      .reply(
        200,
        ok([
          { id: 7149, status: "created" },
          { status: "skipped", reasons: [{ code: "1003", message: "Invalid value for field 'email'" }] },
          { id: 7150, status: "updated" },
          { status: "skipped", reasons: [{ code: 1005, message: "Lead already exists" }] },
        ]),
      );
    const page = await connector().request({
      method: "POST",
      path: "/rest/v1/leads.json",
      body: { action: "createOnly", input: [{}, {}, {}, {}] },
    });
    expect(page.result).toHaveLength(4);
    expect(page.recordErrors).toEqual([
      {
        index: 1,
        status: "skipped",
        reasons: [{ code: "1003", message: "Invalid value for field 'email'" }],
      },
      { index: 3, status: "skipped", reasons: [{ code: "1005", message: "Lead already exists" }] },
    ]);
  });

  it("keeps unknown top-level fields in extra and normalises Lead DB warning objects", async () => {
    nock(ORIGIN)
      .get("/rest/v1/activities/pagingtoken.json")
      .query(true)
      .reply(200, {
        requestId: "1607c#1",
        success: true,
        nextPageToken: "GIYD",
        warnings: [{ code: 1, message: "w" }],
        x: 1,
      });
    const page = await connector().request({
      method: "GET",
      path: "/rest/v1/activities/pagingtoken.json",
      query: { sinceDatetime: "2024-01-01T00:00:00Z" },
    });
    expect(page.result).toEqual([]);
    expect(page.nextPageToken).toBe("GIYD");
    expect(page.requestId).toBe("1607c#1");
    expect(page.warnings).toEqual(["1: w"]);
    expect(page.extra).toEqual({ x: 1 });
  });

  it("does not follow a redirect (the Authorization header would go to another host)", async () => {
    nock(ORIGIN).get("/rest/v1/leads.json").reply(302, "", { Location: "https://evil.example/steal" });
    const evil = nock("https://evil.example").get("/steal").reply(200, ok());
    const error = await rejection(get());
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toMatch(/redirect/);
    expect(evil.isDone()).toBe(false);
  });

  it.each([
    [413, /1 MB/],
    [414, /8 KB/],
  ])("explains HTTP %s as a size limit", async (status, limit) => {
    nock(ORIGIN).get("/rest/v1/leads.json").reply(status, "");
    const error = await rejection(get());
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).status).toBe(status);
    expect(error.message).toMatch(limit);
  });

  it("refuses an answer without a Marketo envelope", async () => {
    nock(ORIGIN)
      .get("/rest/v1/leads.json")
      .reply(200, "<html>maintenance</html>", { "Content-Type": "text/html" });
    const error = await rejection(get());
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toMatch(/text\/html/);
  });

  it("says that call() reads no bulk export file: request() or readExportFile do", async () => {
    nock(ORIGIN)
      .get("/bulk/v1/leads/export/ce45a7a1-f19d-4ce2-882c-a3c795940a7d/file.json")
      .reply(200, "id,email\n1,a@example.com\n", { "Content-Type": "text/csv" });
    const error = await rejection(
      connector().call({
        method: "GET",
        path: "/bulk/v1/leads/export/ce45a7a1-f19d-4ce2-882c-a3c795940a7d/file.json",
      }),
    );
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toMatch(/bulk export file.*request\(\) or readExportFile/s);
  });

  it("surfaces every entry of errors[], not only the first", async () => {
    nock(ORIGIN)
      .get("/rest/v1/leads.json")
      .reply(200, {
        requestId: "e42b#1",
        success: false,
        errors: [
          { code: "1006", message: "Field 'foo' not found" },
          { code: "1003", message: "Invalid value for filterType" },
        ],
      });
    const error = await rejection(get());
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toContain("1006: Field 'foo' not found");
    expect(error.message).toContain("1003: Invalid value for filterType");
    expect((error as UpstreamError).details.errors).toEqual([
      { code: "1006", message: "Field 'foo' not found" },
      { code: "1003", message: "Invalid value for filterType" },
    ]);
  });

  it("acts on the entry of errors[] that asks for a replay even when it is not the first", async () => {
    nock(ORIGIN)
      .get("/rest/v1/leads.json")
      .reply(200, {
        success: false,
        errors: [
          { code: "1003", message: "something else" },
          { code: "602", message: "Access token expired" },
        ],
      });
    identity("second:int");
    nock(ORIGIN)
      .get("/rest/v1/leads.json")
      .reply(200, ok([{ id: 1 }]));
    const page = await get();
    expect(page.result).toEqual([{ id: 1 }]);
  });
});
