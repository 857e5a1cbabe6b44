import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { positionOf } from "../../../src/connectors/marketo/pagination.js";
import type { ResumePosition } from "../../../src/connectors/marketo/types.js";
import { UpstreamError } from "../../../src/errors.js";
import { connector, fail, identity, ORIGIN, ok, rejection } from "../../helpers/marketo-connector.js";

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

/** Serves the asset programs list `times` times, the result for each offset asked; returns "offset/maxReturn" asked. */
function servePrograms(times: number, result: (offset: number) => unknown[]): string[] {
  const offsets: string[] = [];
  nock(ORIGIN)
    .get("/rest/asset/v1/programs.json")
    .query(true)
    .times(times)
    .reply((uri) => {
      const q = new URL(uri, ORIGIN).searchParams;
      offsets.push(`${q.get("offset")}/${q.get("maxReturn")}`);
      const offset = Number(q.get("offset"));
      return [200, { success: true, errors: [], warnings: [], requestId: "r", result: result(offset) }];
    });
  return offsets;
}

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
    // Each page's own records come with it (the console shows them when a run is stopped).
    const ids = (records: { id: number }[]) => records.map((r) => r.id);
    expect(
      progress.map((p) => ({ ...(p as object), records: ids((p as { records: { id: number }[] }).records) })),
    ).toEqual([
      { page: 1, items: 2, nextPageToken: "P2", records: [1, 2] },
      { page: 2, items: 4, nextPageToken: "P3", records: [3, 4] },
      { page: 3, items: 5, records: [5] },
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
    expect(result.next).toEqual({ nextPageToken: "P3" });
  });

  it("stops after the page that reaches maxBytes, with the token of the next page", async () => {
    identity();
    const big = (from: number) =>
      Array.from({ length: 10 }, (_, i) => ({ id: from + i, pad: "x".repeat(90) }));
    const { seen } = tokenPages(LIST, {
      "": ok(big(0), { nextPageToken: "P2" }),
      P2: ok(big(10), { nextPageToken: "P3" }),
      P3: ok(big(20), { nextPageToken: "P4" }),
    });
    // Each page is about 1,100 bytes: the third page passes 2,500, and reading stops after it.
    const result = await connector().call({ method: "GET", path: LIST, paginate: { maxBytes: 2_500 } });
    expect(result.result).toHaveLength(30);
    expect(result).toMatchObject({ complete: false, stoppedBy: "maxBytes", nextPageToken: "P4" });
    expect(seen).toEqual(["", "P2", "P3"]);
  });

  it("cuts the page that passes maxItems and resumes inside it, skipping what was read", async () => {
    identity();
    const { seen } = tokenPages(LIST, {
      "": ok(items(1, 3), { nextPageToken: "P2" }),
      P2: ok(items(4, 3), { nextPageToken: "P3" }),
      P3: ok(items(7, 2)),
    });
    const marketo = connector();
    const first = await marketo.call({ method: "GET", path: LIST, paginate: { maxItems: 5 } });
    expect(first.result.map((r) => (r as { id: number }).id)).toEqual([1, 2, 3, 4, 5]);
    expect(first).toMatchObject({
      stoppedBy: "maxItems",
      complete: false,
      next: { nextPageToken: "P2", skip: 2 },
    });
    // A position inside a page is not a token Marketo knows: no nextPageToken is offered as exact.
    expect(first.nextPageToken).toBeUndefined();
    const rest = await marketo.call({ method: "GET", path: LIST, paginate: true, resume: first.next });
    expect(rest.result.map((r) => (r as { id: number }).id)).toEqual([6, 7, 8]);
    expect(rest.complete).toBe(true);
    expect(seen).toEqual(["", "P2", "P2", "P3"]);
  });

  it("gives the exact position of any record of a collected read (positionOf)", async () => {
    identity();
    tokenPages(LIST, {
      "": ok(items(1, 3), { nextPageToken: "P2" }),
      P2: ok(items(4, 3)),
    });
    const result = await connector().call({ method: "GET", path: LIST, paginate: true });
    expect(positionOf(result, 0)).toEqual({});
    expect(positionOf(result, 2)).toEqual({ skip: 2 });
    expect(positionOf(result, 3)).toEqual({ nextPageToken: "P2" });
    expect(positionOf(result, 5)).toEqual({ nextPageToken: "P2", skip: 2 });
    expect(positionOf(result, 6)).toBeUndefined();
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
    const offsets = servePrograms(3, (offset) => items(offset, offset < 4 ? 2 : 1));
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
    const calls: number[] = [];
    for await (const page of connector().pages({ method: "GET", path: LIST })) {
      sizes.push(page.result.length);
      calls.push(page.callsUsed);
    }
    expect(sizes).toEqual([2, 2]);
    // Each page is a call of its own budget; the read counts them all.
    expect(calls).toEqual([1, 2]);
  });

  it("never stops silently: pages() reads to the end by default, past 200 KB", async () => {
    identity();
    // 1,250 wide records in pages of 300 (about 400 KB in all), as list 1001 of the sandbox.
    const wide = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        id: from + i,
        email: `lead${from + i}@example.com`,
        pad: "x".repeat(300),
      }));
    tokenPages(LIST, {
      "": ok(wide(1, 300), { nextPageToken: "P2" }),
      P2: ok(wide(301, 300), { nextPageToken: "P3" }),
      P3: ok(wide(601, 300), { nextPageToken: "P4" }),
      P4: ok(wide(901, 300), { nextPageToken: "P5" }),
      P5: ok(wide(1201, 50)),
    });
    const ids: number[] = [];
    const pages = connector().pages({ method: "GET", path: LIST });
    let step = await pages.next();
    while (!step.done) {
      ids.push(...step.value.result.map((r) => (r as { id: number }).id));
      step = await pages.next();
    }
    expect(ids).toHaveLength(1_250);
    expect(new Set(ids).size).toBe(1_250);
    expect(step.value).toEqual({ complete: true });
  });

  it("with a cap, pages() says where it stopped and the position that continues exactly", async () => {
    identity();
    const { seen } = tokenPages(LIST, {
      "": ok(items(1, 3), { nextPageToken: "P2" }),
      P2: ok(items(4, 3), { nextPageToken: "P3" }),
      P3: ok(items(7, 1)),
    });
    const marketo = connector();
    const read = async (resume?: ResumePosition) => {
      const got: number[] = [];
      const pages = marketo.pages(
        { method: "GET", path: LIST, ...(resume ? { resume } : {}) },
        { maxItems: 4 },
      );
      let step = await pages.next();
      let last: ResumePosition | undefined;
      while (!step.done) {
        got.push(...step.value.result.map((r) => (r as { id: number }).id));
        last = step.value.next;
        step = await pages.next();
      }
      return { got, end: step.value, last };
    };
    const first = await read();
    expect(first.got).toEqual([1, 2, 3, 4]);
    expect(first.end).toEqual({
      complete: false,
      stoppedBy: "maxItems",
      next: { nextPageToken: "P2", skip: 1 },
    });
    // A reader that only iterates sees the same position on the last page.
    expect(first.last).toEqual(first.end.next);
    const second = await read(first.end.next);
    expect(second.got).toEqual([5, 6, 7]);
    expect(second.end).toEqual({ complete: true });
    expect(seen).toEqual(["", "P2", "P2", "P3"]);
  });

  it("reads an asset GET that is no browse call as one complete answer, however many items it has", async () => {
    identity();
    const sections = Array.from({ length: 25 }, (_, i) => ({
      htmlId: `edit_text_${i}`,
      contentType: "Text",
      value: [{ type: "HTML", value: `<p>${i}</p>` }],
    }));
    const asked: string[] = [];
    nock(ORIGIN)
      .get("/rest/asset/v1/email/1001/content.json")
      .query(true)
      .times(2)
      .reply((uri) => {
        asked.push(new URL(uri, ORIGIN).search);
        return [200, { success: true, errors: [], warnings: [], requestId: "r", result: sections }];
      });
    const marketo = connector();
    const single = await marketo.call({ method: "GET", path: "/rest/asset/v1/email/1001/content.json" });
    expect(single).toMatchObject({ complete: true, pages: 1 });
    expect(single.nextOffset).toBeUndefined();
    const paged = await marketo.call({
      method: "GET",
      path: "/rest/asset/v1/email/1001/content.json",
      paginate: true,
    });
    expect(paged).toMatchObject({ complete: true, pages: 1 });
    expect(paged.result).toHaveLength(25);
    // No offset or maxReturn is added to an operation that does not take them.
    expect(asked).toEqual(["", ""]);
  });

  it("resumes an asset browse read exactly at an offset inside a page", async () => {
    identity();
    const offsets = servePrograms(2, (offset) => items(offset, Math.min(4, 10 - offset)));
    const marketo = connector();
    const first = await marketo.call({
      method: "GET",
      path: "/rest/asset/v1/programs.json",
      query: { maxReturn: 4 },
    });
    expect(positionOf(first, 3)).toEqual({ offset: 3 });
    const rest = await marketo.call({
      method: "GET",
      path: "/rest/asset/v1/programs.json",
      query: { maxReturn: 4 },
      resume: { offset: 3 },
    });
    expect(rest.result.map((r) => (r as { id: number }).id)).toEqual([3, 4, 5, 6]);
    expect(offsets).toEqual(["null/4", "3/4"]);
  });

  it("reports more remaining on a single non-paginated call", async () => {
    identity();
    tokenPages(LIST, { "": ok(items(1, 2), { nextPageToken: "P2" }) });
    const result = await connector().call({ method: "GET", path: LIST });
    expect(result).toMatchObject({ pages: 1, complete: false, nextPageToken: "P2", callsUsed: 1 });
  });
});
