import { describe, expect, it } from "vitest";
import { UpstreamError, ValidationError } from "../../../src/errors.js";
import { resolveDateRanges, statedRanges } from "../../../src/tools/ga/date-presets.js";
import { runToolStep } from "../../../src/tools/run.js";
import { contextFor, FakeGa } from "../../helpers/ga-fake-connector.js";

const ID = "google_analytics_create_key_events";
const LIST = "v1beta/properties/123/keyEvents";

function collected(ga: FakeGa, count: number | undefined) {
  ga.onRunReport = () =>
    count === undefined
      ? {}
      : {
          dimensionHeaders: [{ name: "eventName" }],
          rows: [{ dimensionValues: [{ value: "sign_up" }], metricValues: [{ value: String(count) }] }],
        };
}

describe("Create Key Events", () => {
  it("refuses an event never collected in the last 30 days and creates nothing", async () => {
    const ga = new FakeGa();
    collected(ga, undefined);
    const error = await runToolStep(ID, { property: "123", event_name: "sign_up" }, contextFor(ga)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("event_name");
    // The days checked and stated are Run Reports' last30days (agent trial s4, T11).
    const now = new Date();
    const last30days = resolveDateRanges(["last30days"], now).dateRanges;
    const [stated] = statedRanges(last30days, now, undefined);
    expect((error as Error).message).toContain(
      `not collected any "sign_up" event ${stated?.start_date} to ${stated?.end_date} UTC`,
    );
    expect((error as Error).message).toMatch(/skip_collection_check/);
    const [, report] = ga.callsOf("runReport")[0]?.args ?? [];
    expect(report).toMatchObject({
      dateRanges: last30days,
      metrics: [{ name: "eventCount" }],
      dimensionFilter: {
        filter: {
          fieldName: "eventName",
          stringFilter: { matchType: "EXACT", value: "sign_up", caseSensitive: true },
        },
      },
    });
    // Nothing processed yet: the realtime report (last 30 minutes) was asked too, with the same filter.
    expect(ga.callsOf("runRealtimeReport")[0]?.args[1]).toMatchObject({
      dimensionFilter: (report as { dimensionFilter: unknown }).dimensionFilter,
    });
    expect(ga.callsOf("request")).toHaveLength(0);
  });

  it("accepts an event sent minutes ago that only the realtime report shows yet", async () => {
    const ga = new FakeGa();
    collected(ga, undefined);
    ga.onRealtime = () => ({
      dimensionHeaders: [{ name: "eventName" }],
      rows: [{ dimensionValues: [{ value: "sign_up" }], metricValues: [{ value: "2" }] }],
    });
    const result = await runToolStep(ID, { property: "123", event_name: "sign_up" }, contextFor(ga));
    expect(result.data).toMatchObject({ already_existed: false, collected_events_last_30_days: 2 });
  });

  it("creates a collected event with countingMethod always sent", async () => {
    const ga = new FakeGa();
    collected(ga, 42);
    ga.onRequest = (_api, req) => ({
      name: "properties/123/keyEvents/9",
      eventName: (req.body as { eventName: string }).eventName,
      countingMethod: "ONCE_PER_SESSION",
      createTime: "2026-11-20T10:00:00Z",
      custom: true,
      deletable: true,
    });
    const result = await runToolStep(
      ID,
      { property: "properties/123", event_name: "sign_up", counting_method: "ONCE_PER_SESSION" },
      contextFor(ga),
    );
    expect(ga.callsOf("request")[0]?.args).toEqual([
      "admin",
      expect.objectContaining({
        method: "POST",
        path: LIST,
        body: { eventName: "sign_up", countingMethod: "ONCE_PER_SESSION" },
      }),
    ]);
    expect(result.data).toEqual({
      key_event: {
        name: "properties/123/keyEvents/9",
        event_name: "sign_up",
        counting_method: "ONCE_PER_SESSION",
        create_time: "2026-11-20T10:00:00Z",
        custom: true,
        deletable: true,
      },
      already_existed: false,
      collected_events_last_30_days: 42,
      warnings: [],
    });
  });

  it("skips the collection check on request", async () => {
    const ga = new FakeGa();
    ga.onRequest = () => ({
      name: "properties/123/keyEvents/1",
      eventName: "launch_promo",
      countingMethod: "ONCE_PER_EVENT",
    });
    const result = await runToolStep(
      ID,
      { property: "123", event_name: "launch_promo", skip_collection_check: true },
      contextFor(ga),
    );
    expect(ga.callsOf("runReport")).toHaveLength(0);
    expect(result.data).toMatchObject({ already_existed: false, collected_events_last_30_days: null });
    expect((result.data as { warnings: string[] }).warnings[0]).toMatch(/skipped/);
  });

  it("returns an existing key event instead of creating a duplicate, noting a different counting method", async () => {
    const ga = new FakeGa();
    ga.lists[LIST] = [
      {
        name: "properties/123/keyEvents/1",
        eventName: "purchase",
        countingMethod: "ONCE_PER_EVENT",
        custom: false,
        deletable: false,
      },
      { name: "properties/123/keyEvents/2", eventName: "sign_up", countingMethod: "ONCE_PER_SESSION" },
    ];
    const result = await runToolStep(ID, { property: "123", event_name: "sign_up" }, contextFor(ga));
    expect(result.data).toMatchObject({
      key_event: { name: "properties/123/keyEvents/2", counting_method: "ONCE_PER_SESSION" },
      already_existed: true,
    });
    expect((result.data as { warnings: string[] }).warnings[0]).toMatch(
      /counts ONCE_PER_SESSION, not ONCE_PER_EVENT.*v1beta\/properties\/123\/keyEvents\/2/,
    );
    expect(ga.callsOf("request")).toHaveLength(0);
    expect(ga.callsOf("runReport")).toHaveLength(0);
    // The first listing names the property (accountSummaries); the key events are listed next.
    expect(ga.callsOf("listAll").map((call) => call.args[0])).toEqual(["v1beta/accountSummaries", LIST]);
    expect(ga.callsOf("listAll")[1]?.args).toEqual([LIST, "keyEvents", { pageSize: 200 }]);
  });

  it("on 409 ALREADY_EXISTS (a concurrent create) returns the winner; other errors propagate", async () => {
    const ga = new FakeGa();
    collected(ga, 3);
    ga.onRequest = () => {
      ga.lists[LIST] = [
        { name: "properties/123/keyEvents/7", eventName: "sign_up", countingMethod: "ONCE_PER_EVENT" },
      ];
      throw new UpstreamError("conflict", { status: 409, serviceCode: "ALREADY_EXISTS" });
    };
    const result = await runToolStep(ID, { property: "123", event_name: "sign_up" }, contextFor(ga));
    expect(result.data).toMatchObject({ already_existed: true, collected_events_last_30_days: 3 });

    const failing = new FakeGa();
    collected(failing, 3);
    failing.onRequest = () => {
      throw new UpstreamError("bad", { status: 400, serviceCode: "INVALID_ARGUMENT" });
    };
    await expect(
      runToolStep(ID, { property: "123", event_name: "sign_up" }, contextFor(failing)),
    ).rejects.toThrow(/bad/);
  });

  it.each(["1st_event", "has-dash", "a".repeat(41), ""])(
    "refuses the event name %j by GA's rules",
    async (name) => {
      await expect(
        runToolStep(ID, { property: "123", event_name: name }, contextFor(new FakeGa())),
      ).rejects.toThrow(/event_name/);
    },
  );
});
