/**
 * A read of more than 10 activity types as the CLI and a plugin host run it, keeping no whole result beside the
 * answer: the read stops at what one answer holds, and the words say what helps then (narrow or count), not
 * "raise max_items", which would read the same (review of 4b9aefe). An empty read says so.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolStep } from "../../src/tools/run.js";
import { type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";

let fixture: MarketoFixture;
beforeAll(async () => {
  // No limits of the connector's either: the reads cost only their calls.
  fixture = await marketoFixture(
    { leadCount: 300, seed: 5, rateLimit: 1_000_000 },
    { MARKETO_CALLS_PER_WINDOW: "1000000", MARKETO_DAILY_QUOTA: "10000000", MARKETO_MAX_CONCURRENT: "10" },
  );
});
afterAll(async () => fixture.close());

const read = async (query: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
  const ctx = await fixture.workspace.toolContext({});
  const input = {
    method: "GET",
    endpoint: "/rest/v1/activities.json",
    query_parameters: query,
    paginate: true,
    max_pages: 200,
    ...extra,
  };
  return runToolStep("marketo_api_call", input, ctx);
};

describe("a grouped activity read without kept results", () => {
  it("stopped by the answer's size, says to narrow or count, and counting reads it whole", async () => {
    const query = { sinceDatetime: "2026-11-01T00:00:00Z", activityTypeIds: "all" };
    const cut = await read(query, { max_items: 100_000 });
    expect(cut.summary).toContain(
      "the answer holds no more: narrow with where or leadIds, or count with count_by",
    );
    expect(cut.summary).not.toContain("raise max_items");
    const counted = await read(query, { max_items: 100_000, count_by: "activityType" });
    expect(counted.summary).not.toContain("stopped before its end");
  });

  it("with no record says there is none to show", async () => {
    const empty = await read({
      sinceDatetime: "2026-01-01T00:00:00Z",
      activityTypeIds: "all",
      leadIds: "999999",
    });
    expect(empty.summary).toContain("0 records");
    expect(empty.summary).toContain("none to show");
  });
});
