import nock from "nock";
import { describe, expect, it } from "vitest";
import { UpstreamError } from "../../../src/errors.js";
import { connectionFrom } from "../../../src/tools/connection-from.js";
import { runToolStep } from "../../../src/tools/run.js";
import type { ToolContext } from "../../../src/tools/types.js";
import { ADMIN, DATA, offline, setup } from "../../helpers/google-connector.js";

offline();

/** Google (or something in front of it) answering every request with 200 and `body`. */
function answerEverything(body: unknown): { requests: string[] } {
  const requests: string[] = [];
  const reply = (uri: string) => {
    requests.push(uri);
    return body;
  };
  for (const host of [DATA, ADMIN]) {
    nock(host).persist().get(/.*/).reply(200, reply);
    nock(host).persist().post(/.*/).reply(200, reply);
  }
  return { requests };
}

function context(): ToolContext {
  const { connector } = setup({ maxRetries: 0 });
  return {
    connection: connectionFrom({ google: async () => connector }),
    progress: () => undefined,
  };
}

async function failure(run: Promise<unknown>): Promise<unknown> {
  return run.then(
    () => {
      throw new Error("expected a failure, got a success");
    },
    (error: unknown) => error,
  );
}

describe("an answer without the documented shape is an upstream error that says so", () => {
  for (const body of [[1, 2, 3], { rows: "many" }, {}]) {
    it(`runReport on ${JSON.stringify(body)}: upstream, not the caller's field names`, async () => {
      answerEverything(body);
      const error = await failure(
        runToolStep(
          "google_analytics_run_reports",
          { property: "123", metrics: ["sessions"], date_ranges: ["last7days"] },
          context(),
        ),
      );
      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as Error).message).toMatch(/does not have the documented shape/);
      expect((error as Error).message).not.toMatch(/is not a metric/);
    });
  }

  for (const body of [[1, 2, 3], { displayName: "Shop" }, { name: "accounts/1" }]) {
    it(`create property on ${JSON.stringify(body)}: no success without a property id`, async () => {
      answerEverything(body);
      const error = await failure(
        runToolStep(
          "google_analytics_create_properties",
          { analytics_account: "accounts/77", display_name: "Shop", time_zone: "Europe/Paris" },
          context(),
        ),
      );
      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as Error).message).toMatch(/creation of a property .*documented shape/);
      expect((error as Error).message).toMatch(/may have been created/);
    });
  }

  for (const body of [[1, 2, 3], { eventName: "sign_up" }]) {
    it(`create key event on ${JSON.stringify(body)}: no success without the key event's name`, async () => {
      answerEverything(body);
      const error = await failure(
        runToolStep(
          "google_analytics_create_key_events",
          { property: "123", event_name: "sign_up", skip_collection_check: true },
          context(),
        ),
      );
      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as Error).message).toMatch(/creation of a key event .*documented shape/);
    });
  }

  it("a report answer of the documented shape, even an empty one, still reads as a report", async () => {
    const { connector } = setup();
    answerEverything({ rowCount: 0, kind: "analyticsData#runReport" });
    await expect(connector.runReport("123", { metrics: [{ name: "sessions" }] })).resolves.toMatchObject({
      rowCount: 0,
    });
  });
});
