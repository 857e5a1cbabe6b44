import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { MarketoConnector } from "../../../src/connectors/marketo/connector.js";
import { encodeQuery } from "../../../src/connectors/marketo/url.js";
import { ConfigurationError, EndpointNotAllowedError, ValidationError } from "../../../src/errors.js";
import {
  CLIENT_ID,
  CLIENT_SECRET,
  connector,
  identity,
  ORIGIN,
  ok,
  type Recorded,
  recordingFetch,
  rejection,
} from "../../helpers/marketo-connector.js";

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe("Marketo request shape", () => {
  it.each([
    `${ORIGIN}/rest`,
    `${ORIGIN}/rest/`,
    ORIGIN,
    `${ORIGIN}/`,
    "https://123-ABC-456.MKTOREST.com/rest//",
  ])("derives the origin from %s and never emits //rest", async (restEndpoint) => {
    const log: Recorded[] = [];
    identity();
    nock(ORIGIN).get("/rest/v1/lists.json").reply(200, ok());
    const marketo = connector({ restEndpoint }, { fetch: recordingFetch(log) });
    await marketo.request({ method: "GET", path: "/rest/v1/lists.json" });
    expect(marketo.instance).toBe("123-abc-456.mktorest.com");
    expect(log.map((r) => r.url)).toEqual([`${ORIGIN}/identity/oauth/token`, `${ORIGIN}/rest/v1/lists.json`]);
  });

  it.each([
    "http://123-abc-456.mktorest.com/rest",
    "https://user:pw@123-abc-456.mktorest.com/rest",
    "https://123-abc-456.mktorest.com/other",
    "not a url",
  ])("refuses the REST endpoint %s", (restEndpoint) => {
    expect(() => connector({ restEndpoint })).toThrow(ConfigurationError);
  });

  it("accepts http only for a loopback sandbox", () => {
    expect(connector({ restEndpoint: "http://127.0.0.1:4010/rest" }).instance).toBe("127.0.0.1:4010");
  });

  it("requires the client id and secret", () => {
    expect(
      () => new MarketoConnector({ clientId: "", clientSecret: CLIENT_SECRET, restEndpoint: ORIGIN }),
    ).toThrow(ConfigurationError);
    expect(
      () => new MarketoConnector({ clientId: CLIENT_ID, clientSecret: " ", restEndpoint: ORIGIN }),
    ).toThrow(ConfigurationError);
  });

  it.each([
    "//evil.com/rest/v1/leads.json",
    "https://evil.com/rest/v1/leads.json",
    "/rest/../identity/oauth/token",
    "/rest/%2e%2e/identity",
    "/identity/oauth/token",
    "/rest\\v1",
    "/rest/v1/leads.json?access_token=x",
  ])("refuses the endpoint %s before any request", async (path) => {
    const log: Recorded[] = [];
    const error = await rejection(
      connector({}, { fetch: recordingFetch(log) }).request({ method: "GET", path }),
    );
    expect(error).toBeInstanceOf(EndpointNotAllowedError);
    expect(log).toHaveLength(0);
  });

  it("encodes arrays as comma-separated values and percent-encodes the rest", () => {
    expect(
      encodeQuery({
        filterType: "email",
        filterValues: ["a@x.com", "b+c@x.com"],
        id: [1, 2],
        skip: undefined,
        flag: true,
      }),
    ).toBe("filterType=email&filterValues=a%40x.com,b%2Bc%40x.com&id=1,2&flag=true");
  });

  it("sends a GET whose query is over 8 KB as a form POST with _method=GET", async () => {
    const log: Recorded[] = [];
    const emails = Array.from({ length: 300 }, (_, i) => `someone.with.a.long.address.${i}@example.com`);
    identity();
    const scope = nock(ORIGIN)
      .post("/rest/v1/leads.json", (body) => body._method === "GET" && body.filterValues === emails.join(","))
      .reply(200, ok([{ id: 1 }]));
    const page = await connector({}, { fetch: recordingFetch(log) }).request({
      method: "GET",
      path: "/rest/v1/leads.json",
      query: { filterType: "email", filterValues: emails },
    });
    expect(scope.isDone()).toBe(true);
    expect(page.result).toEqual([{ id: 1 }]);
    expect(log[1]?.url).toBe(`${ORIGIN}/rest/v1/leads.json`);
    expect(log[1]?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
  });

  it("keeps a short GET query in the URL", async () => {
    identity();
    const scope = nock(ORIGIN)
      .get("/rest/v1/leads.json")
      .query({ filterType: "email", filterValues: "a@x.com,b@x.com" })
      .reply(200, ok());
    await connector().request({
      method: "GET",
      path: "/rest/v1/leads.json",
      query: { filterType: "email", filterValues: ["a@x.com", "b@x.com"] },
    });
    expect(scope.isDone()).toBe(true);
  });

  it("sends Lead DB POST bodies as JSON", async () => {
    identity();
    const body = { action: "createOrUpdate", lookupField: "email", input: [{ email: "a@x.com" }] };
    const scope = nock(ORIGIN, { reqheaders: { "content-type": "application/json" } })
      .post("/rest/v1/leads.json", body)
      .reply(200, ok([{ id: 1, status: "created" }]));
    await connector().request({ method: "POST", path: "/rest/v1/leads.json", body });
    expect(scope.isDone()).toBe(true);
  });

  it("sends Asset POST bodies form-urlencoded, objects as JSON per field", async () => {
    const log: Recorded[] = [];
    identity();
    nock(ORIGIN)
      .post("/rest/asset/v1/staticLists.json")
      .reply(200, { success: true, errors: [], warnings: [], requestId: "r", result: [{ id: 5 }] });
    await connector({}, { fetch: recordingFetch(log) }).request({
      method: "POST",
      path: "/rest/asset/v1/staticLists.json",
      body: { name: "VIP list", folder: { id: 1056, type: "Folder" } },
    });
    expect(log[1]?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(new URLSearchParams(log[1]?.body)).toEqual(
      new URLSearchParams({ name: "VIP list", folder: '{"id":1056,"type":"Folder"}' }),
    );
  });

  it("refuses a body on a GET and an unsupported method before sending", async () => {
    const log: Recorded[] = [];
    const marketo = connector({}, { fetch: recordingFetch(log) });
    expect(
      await rejection(marketo.request({ method: "GET", path: "/rest/v1/leads.json", body: { a: 1 } })),
    ).toBeInstanceOf(ValidationError);
    const put = { method: "PUT", path: "/rest/v1/leads.json" } as unknown as Parameters<
      typeof marketo.request
    >[0];
    expect(await rejection(marketo.request(put))).toBeInstanceOf(ValidationError);
    expect(log).toHaveLength(0);
  });
});
