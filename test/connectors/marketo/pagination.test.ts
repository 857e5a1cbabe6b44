import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { UpstreamError } from "../../../src/errors.js";
import { connector, fail, identity, ORIGIN, ok, rejection } from "./helpers.js";

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const LIST = "/rest/v1/lists/1001/leads.json";

/** Serves pages keyed by the nextPageToken the request carries ("" for the first page). */
function tokenPages(path: string, pages: Record<string, Record<string, unknown>>): { seen: string[] } {
  const seen: string[] = [];
  nock(ORIGIN)
    .get(path)
    .query(true)
    .times(50)
    .reply((uri) => {
      const token = new URL(uri, ORIGIN).searchParams.get("nextPageToken") ?? "";
      seen.push(token);
      const page = pages[token];
      return page ? [200, page] : [200, fail("610", `no page for token ${token}`)];
    });
  return { seen };
}

const items = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i }));

describe("Marketo pagination", () => {
  it("follows nextPageToken with identical parameters and stops when the token is absent", async () => {
    identity();
    const { seen } = tokenPages(LIST, {
      "": ok(items(1, 2), { nextPageToken: "P2" }),
      P2: ok(items(3, 2), { nextPageToken: "P3" }),
      P3: ok(items(5, 1)),
    });
    const progress: unknown[] = [];
    const result = await connector().call({
      method: "GET",
      path: LIST,
      query: { batchSize: 2, fields: ["email", "firstName"] },
      paginate: { onPage: (p) => progress.push(p) },
    });
    expect(result.result.map((r) => (r as { id: number }).id)).toEqual([1, 2, 3, 4, 5]);
    expect(result).toMatchObject({ complete: true, pages: 3, callsUsed: 3 });
    expect(result.nextPageToken).toBeUndefined();
    expect(seen).toEqual(["", "P2", "P3"]);
    expect(progress).toEqual([
      { page: 1, items: 2, nextPageToken: "P2" },
      { page: 2, items: 4, nextPageToken: "P3" },
      { page: 3, items: 5 },
    ]);
  });

  it("keeps paging through empty pages while moreResult is true and stops at moreResult:false", async () => {
    identity();
    const { seen } = tokenPages("/rest/v1/activities.json", {
      T1: ok([], { nextPageToken: "T2", moreResult: true }),
      T2: ok([], { nextPageToken: "T3", moreResult: true }),
      T3: ok(items(1, 3), { nextPageToken: "T4", moreResult: true }),
      T4: ok(items(4, 1), { nextPageToken: "T5", moreResult: false }),
    });
    const result = await connector().call({
      method: "GET",
      path: "/rest/v1/activities.json",
      query: { nextPageToken: "T1", activityTypeIds: [1, 12] },
      paginate: true,
    });
    expect(seen).toEqual(["T1", "T2", "T3", "T4"]);
    expect(result.result).toHaveLength(4);
    expect(result.complete).toBe(true);
    // The final token of an activity read picks up later activity; it is kept for the next sync.
    expect(result.extra.lastPageToken).toBe("T5");
  });

  it("fails clearly on a repeated nextPageToken (a pagination loop)", async () => {
    identity();
    tokenPages(LIST, {
      "": ok(items(1, 1), { nextPageToken: "A" }),
      A: ok(items(2, 1), { nextPageToken: "B" }),
      B: ok(items(3, 1), { nextPageToken: "A" }),
    });
    const error = await rejection(connector().call({ method: "GET", path: LIST, paginate: true }));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toMatch(/pagination loop/);
  });

  it("stops at maxPages with complete:false and the token to resume from", async () => {
    identity();
    tokenPages(LIST, {
      "": ok(items(1, 2), { nextPageToken: "P2" }),
      P2: ok(items(3, 2), { nextPageToken: "P3" }),
    });
    const result = await connector().call({ method: "GET", path: LIST, paginate: { maxPages: 2 } });
    expect(result).toMatchObject({ complete: false, stoppedBy: "maxPages", nextPageToken: "P3", pages: 2 });
    expect(result.warnings.join(" ")).toMatch(/nextPageToken/);
  });

  it("stops before exceeding maxBytes and resumes from the page it left out", async () => {
    identity();
    const big = (from: number) =>
      Array.from({ length: 10 }, (_, i) => ({ id: from + i, pad: "x".repeat(90) }));
    const { seen } = tokenPages(LIST, {
      "": ok(big(0), { nextPageToken: "P2" }),
      P2: ok(big(10), { nextPageToken: "P3" }),
      P3: ok(big(20), { nextPageToken: "P4" }),
    });
    // Each page is about 1,100 bytes: two fit in 2,500, the third would not.
    const result = await connector().call({ method: "GET", path: LIST, paginate: { maxBytes: 2_500 } });
    expect(result.result).toHaveLength(20);
    expect(result).toMatchObject({ complete: false, stoppedBy: "maxBytes", nextPageToken: "P3" });
    expect(JSON.stringify(result.result).length).toBeLessThanOrEqual(2_500);
    expect(seen).toEqual(["", "P2", "P3"]);
  });

  it("stops before exceeding maxItems", async () => {
    identity();
    tokenPages(LIST, {
      "": ok(items(1, 3), { nextPageToken: "P2" }),
      P2: ok(items(4, 3), { nextPageToken: "P3" }),
    });
    const result = await connector().call({ method: "GET", path: LIST, paginate: { maxItems: 5 } });
    expect(result.result).toHaveLength(3);
    expect(result).toMatchObject({ stoppedBy: "maxItems", nextPageToken: "P2", complete: false });
  });

  it("replays only the page that met a 601 in the middle of a read", async () => {
    identity("first:int");
    identity("second:int");
    let p2 = 0;
    const seen: string[] = [];
    nock(ORIGIN)
      .get(LIST)
      .query(true)
      .times(4)
      .reply((uri) => {
        const token = new URL(uri, ORIGIN).searchParams.get("nextPageToken") ?? "";
        seen.push(token);
        if (token === "") return [200, ok(items(1, 2), { nextPageToken: "P2" })];
        p2 += 1;
        return p2 === 1 ? [200, fail("601", "Access token invalid")] : [200, ok(items(3, 1))];
      });
    const marketo = connector();
    const result = await marketo.call({ method: "GET", path: LIST, paginate: true });
    expect(result.result).toHaveLength(3);
    expect(seen).toEqual(["", "P2", "P2"]);
    expect(marketo.tokenRequests()).toBe(2);
  });

  it("pages Asset API lists with offset/maxReturn and ends on a short page", async () => {
    identity();
    const offsets: string[] = [];
    nock(ORIGIN)
      .get("/rest/asset/v1/programs.json")
      .query(true)
      .times(3)
      .reply((uri) => {
        const q = new URL(uri, ORIGIN).searchParams;
        offsets.push(`${q.get("offset")}/${q.get("maxReturn")}`);
        const offset = Number(q.get("offset"));
        return [
          200,
          {
            success: true,
            errors: [],
            warnings: [],
            requestId: "r",
            result: items(offset, offset < 4 ? 2 : 1),
          },
        ];
      });
    const result = await connector().call({
      method: "GET",
      path: "/rest/asset/v1/programs.json",
      query: { maxReturn: 2 },
      paginate: true,
    });
    expect(offsets).toEqual(["0/2", "2/2", "4/2"]);
    expect(result.result).toHaveLength(5);
    expect(result.complete).toBe(true);
  });

  it("treats the 'No assets found' warning as the end with an empty result, not an error", async () => {
    identity();
    nock(ORIGIN)
      .get("/rest/asset/v1/staticLists.json")
      .query({ offset: "0", maxReturn: "200" })
      .reply(200, {
        success: true,
        errors: [],
        warnings: ["No assets found for the given search criteria."],
        requestId: "r",
      });
    const result = await connector().call({
      method: "GET",
      path: "/rest/asset/v1/staticLists.json",
      paginate: true,
    });
    expect(result.result).toEqual([]);
    expect(result.warnings).toEqual(["No assets found for the given search criteria."]);
    expect(result.complete).toBe(true);
  });

  it("returns the next offset when an asset read is capped", async () => {
    identity();
    nock(ORIGIN)
      .get("/rest/asset/v1/emails.json")
      .query(true)
      .times(2)
      .reply((uri) => [
        200,
        {
          success: true,
          requestId: "r",
          result: items(Number(new URL(uri, ORIGIN).searchParams.get("offset")), 2),
        },
      ]);
    const result = await connector().call({
      method: "GET",
      path: "/rest/asset/v1/emails.json",
      query: { maxReturn: 2, offset: 10 },
      paginate: { maxPages: 2 },
    });
    expect(result).toMatchObject({ complete: false, stoppedBy: "maxPages", nextOffset: 14 });
  });

  it("streams pages with pages() and stops at the end", async () => {
    identity();
    tokenPages(LIST, {
      "": ok(items(1, 2), { nextPageToken: "P2" }),
      P2: ok(items(3, 2)),
    });
    const sizes: number[] = [];
    for await (const page of connector().pages({ method: "GET", path: LIST })) sizes.push(page.result.length);
    expect(sizes).toEqual([2, 2]);
  });

  it("reports more remaining on a single non-paginated call", async () => {
    identity();
    tokenPages(LIST, { "": ok(items(1, 2), { nextPageToken: "P2" }) });
    const result = await connector().call({ method: "GET", path: LIST });
    expect(result).toMatchObject({ pages: 1, complete: false, nextPageToken: "P2", callsUsed: 1 });
  });
});
