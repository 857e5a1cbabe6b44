import { describe, expect, it } from "vitest";
import { SCOPE_READONLY } from "../../../src/sandbox/google/types.js";
import {
  ANALYST,
  accessToken,
  admin,
  EDITOR,
  loopbackOnly,
  rpcMessage,
  rpcStatus,
  VIEWER,
  withSandbox,
} from "../../helpers/google-sandbox.js";

loopbackOnly();

const NOW = Date.parse("2025-03-01T12:00:00.000Z");
const SHOP = "/v1beta/properties/412345671";

describe("Admin API: custom dimensions", () => {
  const sandbox = withSandbox({ now: () => NOW });

  it("lists the seeded ones, creates, gets, patches and archives", async () => {
    const s = sandbox();
    const token = await accessToken(s, EDITOR);
    const seeded = await admin(s, token, "GET", `${SHOP}/customDimensions`);
    expect((seeded.body.customDimensions as { parameterName: string }[]).map((d) => d.parameterName)).toEqual(
      ["payment_type", "customer_tier", "item_color"],
    );
    const created = await admin(s, token, "POST", `${SHOP}/customDimensions`, {
      parameterName: "coupon_code",
      displayName: "Coupon code",
      description: "The coupon of the order",
      scope: "EVENT",
    });
    expect(created).toMatchObject({ status: 200 });
    expect(created.body).toEqual({
      name: expect.stringMatching(/^properties\/412345671\/customDimensions\/\d+$/),
      parameterName: "coupon_code",
      displayName: "Coupon code",
      description: "The coupon of the order",
      scope: "EVENT",
    });
    const path = `/v1beta/${String(created.body.name)}`;
    expect((await admin(s, token, "GET", path)).body).toEqual(created.body);
    const patched = await admin(s, token, "PATCH", `${path}?updateMask=display_name`, {
      displayName: "Coupon",
    });
    expect(patched.body).toMatchObject({ displayName: "Coupon", parameterName: "coupon_code" });
    expect(
      rpcStatus(await admin(s, token, "PATCH", `${path}?updateMask=parameter_name`, { parameterName: "x" })),
    ).toBe("INVALID_ARGUMENT");
    expect(await admin(s, token, "POST", `${path}:archive`, {})).toMatchObject({ status: 200, body: {} });
    expect((await admin(s, token, "GET", path)).status).toBe(404);
    const after = await admin(s, token, "GET", `${SHOP}/customDimensions`);
    expect((after.body.customDimensions as unknown[]).length).toBe(3);
  });

  it("checks names, scope, the ads flag, duplicates, the per-scope limit and roles", async () => {
    const s = sandbox();
    const token = await accessToken(s, EDITOR);
    const create = (body: Record<string, unknown>) =>
      admin(s, token, "POST", `${SHOP}/customDimensions`, body);
    const base = { parameterName: "p1", displayName: "P one", scope: "EVENT" };
    expect(rpcMessage(await create({ ...base, scope: undefined }))).toMatch(/scope is required/);
    expect(rpcMessage(await create({ ...base, parameterName: "1bad" }))).toMatch(
      /parameterName "1bad" is invalid/,
    );
    expect(rpcMessage(await create({ ...base, scope: "USER", parameterName: "a".repeat(25) }))).toMatch(
      /at most 24/,
    );
    expect(rpcMessage(await create({ ...base, displayName: "Bad-name" }))).toMatch(
      /displayName "Bad-name" is invalid/,
    );
    expect(rpcMessage(await create({ ...base, disallowAdsPersonalization: true }))).toMatch(
      /only supported for user-scoped/,
    );
    expect(rpcMessage(await create({ ...base, colour: "red" }))).toMatch(/Unknown name "colour"/);
    expect((await create({ ...base, parameterName: "payment_type" })).status).toBe(409);
    for (let i = 0; i < 9; i++) {
      expect(
        (await create({ parameterName: `item_${i}`, displayName: `Item ${i}`, scope: "ITEM" })).status,
      ).toBe(200);
    }
    const eleventh = await create({ parameterName: "item_x", displayName: "Item x", scope: "ITEM" });
    expect(rpcStatus(eleventh)).toBe("FAILED_PRECONDITION");
    const viewer = await accessToken(s, VIEWER);
    expect((await admin(s, viewer, "POST", `${SHOP}/customDimensions`, base)).status).toBe(403);
    const readOnly = await accessToken(s, EDITOR, [SCOPE_READONLY]);
    expect(rpcStatus(await admin(s, readOnly, "POST", `${SHOP}/customDimensions`, base))).toBe(
      "PERMISSION_DENIED",
    );
  });
});

describe("Admin API: custom metrics and data retention", () => {
  const sandbox = withSandbox({ now: () => NOW });

  it("needs restrictedMetricType for CURRENCY metrics and refuses it for the others", async () => {
    const s = sandbox();
    const token = await accessToken(s, EDITOR);
    const create = (body: Record<string, unknown>) => admin(s, token, "POST", `${SHOP}/customMetrics`, body);
    const base = { parameterName: "tax", displayName: "Tax", scope: "EVENT" };
    expect(rpcMessage(await create({ ...base, measurementUnit: "CURRENCY" }))).toMatch(
      /required for CURRENCY/,
    );
    expect(
      rpcMessage(await create({ ...base, measurementUnit: "STANDARD", restrictedMetricType: ["COST_DATA"] })),
    ).toMatch(/must be empty/);
    expect(rpcMessage(await create({ ...base, measurementUnit: "PARSECS" }))).toMatch(
      /Invalid value at 'custom_metric.measurement_unit'/,
    );
    expect(rpcMessage(await create({ ...base, measurementUnit: "STANDARD", scope: "USER" }))).toMatch(
      /Invalid value|EVENT-scoped/,
    );
    const ok = await create({ ...base, measurementUnit: "CURRENCY", restrictedMetricType: ["REVENUE_DATA"] });
    expect(ok.body).toMatchObject({
      measurementUnit: "CURRENCY",
      restrictedMetricType: ["REVENUE_DATA"],
      scope: "EVENT",
    });
    const path = `/v1beta/${String(ok.body.name)}`;
    const changed = await admin(
      s,
      token,
      "PATCH",
      `${path}?updateMask=measurement_unit,restricted_metric_type`,
      { measurementUnit: "SECONDS" },
    );
    expect(changed.body).toMatchObject({ measurementUnit: "SECONDS" });
    expect(changed.body).not.toHaveProperty("restrictedMetricType");
    expect((await admin(s, token, "POST", `${path}:archive`)).status).toBe(200);
    const names = (await admin(s, token, "GET", `${SHOP}/customMetrics`)).body.customMetrics as {
      parameterName: string;
    }[];
    expect(names.map((m) => m.parameterName)).toEqual(["discount_amount", "video_seconds"]);
  });

  it("reads and changes data retention, refusing 360-only durations and event-only ones for user data", async () => {
    const s = sandbox();
    const token = await accessToken(s, EDITOR);
    const path = "/v1beta/properties/412345674/dataRetentionSettings";
    expect((await admin(s, token, "GET", path)).body).toEqual({
      name: "properties/412345674/dataRetentionSettings",
      eventDataRetention: "TWO_MONTHS",
      resetUserDataOnNewActivity: true,
      userDataRetention: "FOURTEEN_MONTHS",
    });
    const patched = await admin(
      s,
      token,
      "PATCH",
      `${path}?updateMask=event_data_retention,reset_user_data_on_new_activity`,
      {
        eventDataRetention: "FOURTEEN_MONTHS",
        resetUserDataOnNewActivity: false,
      },
    );
    expect(patched.body).toEqual({
      name: "properties/412345674/dataRetentionSettings",
      eventDataRetention: "FOURTEEN_MONTHS",
      userDataRetention: "FOURTEEN_MONTHS",
    });
    const premium = await admin(s, token, "PATCH", `${path}?updateMask=event_data_retention`, {
      eventDataRetention: "FIFTY_MONTHS",
    });
    expect(rpcMessage(premium)).toMatch(/only available to Google Analytics 360/);
    // "Available to 360 properties only. Available for event data only." (RetentionDuration, discovery doc)
    const userLevel = await admin(s, token, "PATCH", `${path}?updateMask=user_data_retention`, {
      userDataRetention: "TWENTY_SIX_MONTHS",
    });
    expect(rpcMessage(userLevel)).toMatch(
      /userDataRetention TWENTY_SIX_MONTHS is available for event data only/,
    );
    expect(rpcStatus(await admin(s, token, "PATCH", path, { eventDataRetention: "TWO_MONTHS" }))).toBe(
      "INVALID_ARGUMENT",
    );
  });
});

describe("Admin API: conversion events are key events, and accounts change and go to the trash", () => {
  const sandbox = withSandbox({ now: () => NOW });

  it("creates through conversionEvents what keyEvents lists, and deletes it through either name", async () => {
    const s = sandbox();
    const token = await accessToken(s, EDITOR);
    const created = await admin(s, token, "POST", `${SHOP}/conversionEvents`, {
      eventName: "generate_lead",
      defaultConversionValue: { value: 12.5, currencyCode: "USD" },
    });
    expect(created.body).toMatchObject({
      name: expect.stringMatching(/conversionEvents\/\d+$/),
      countingMethod: "ONCE_PER_EVENT",
      defaultConversionValue: { value: 12.5, currencyCode: "USD" },
    });
    const id = String(created.body.name).split("/").pop();
    const asKeyEvent = await admin(s, token, "GET", `${SHOP}/keyEvents/${id}`);
    expect(asKeyEvent.body).toMatchObject({
      eventName: "generate_lead",
      defaultValue: { numericValue: 12.5, currencyCode: "USD" },
    });
    expect(
      (
        await admin(s, token, "POST", `${SHOP}/keyEvents`, {
          eventName: "generate_lead",
          countingMethod: "ONCE_PER_EVENT",
        })
      ).status,
    ).toBe(409);
    const patched = await admin(
      s,
      token,
      "PATCH",
      `${SHOP}/conversionEvents/${id}?updateMask=counting_method`,
      { countingMethod: "ONCE_PER_SESSION" },
    );
    expect(patched.body).toMatchObject({ countingMethod: "ONCE_PER_SESSION" });
    expect((await admin(s, token, "DELETE", `${SHOP}/conversionEvents/${id}`)).body).toEqual({});
    expect((await admin(s, token, "GET", `${SHOP}/keyEvents/${id}`)).status).toBe(404);
  });

  it("patches an account, and DELETE trashes it: Empty, deleted:true, hidden unless showDeleted", async () => {
    const s = sandbox();
    const token = await accessToken(s, ANALYST);
    const patched = await admin(
      s,
      token,
      "PATCH",
      "/v1beta/accounts/100002?updateMask=display_name,region_code",
      {
        displayName: "Media Group",
        regionCode: "DE",
      },
    );
    expect(patched.body).toMatchObject({
      displayName: "Media Group",
      regionCode: "DE",
      updateTime: "2025-03-01T12:00:00.000Z",
    });
    expect(
      rpcStatus(
        await admin(s, token, "PATCH", "/v1beta/accounts/100002?updateMask=region_code", {
          regionCode: "Germany",
        }),
      ),
    ).toBe("INVALID_ARGUMENT");
    const editor = await accessToken(s, EDITOR);
    expect((await admin(s, editor, "DELETE", "/v1beta/accounts/100001")).status).toBe(403);
    expect(await admin(s, token, "DELETE", "/v1beta/accounts/100002")).toMatchObject({
      status: 200,
      body: {},
    });
    expect((await admin(s, token, "GET", "/v1beta/accounts/100002")).body).toMatchObject({ deleted: true });
    const listed = async (query = "") =>
      ((await admin(s, token, "GET", `/v1beta/accounts${query}`)).body.accounts as { name: string }[]).map(
        (a) => a.name,
      );
    expect(await listed()).toEqual(["accounts/100001"]);
    expect(await listed("?showDeleted=true")).toEqual(["accounts/100001", "accounts/100002"]);
    expect((await admin(s, token, "DELETE", "/v1beta/accounts/100002")).status).toBe(404);
  });

  it("answers a real method it does not emulate with a NOT_FOUND that says so", async () => {
    const s = sandbox();
    const token = await accessToken(s, ANALYST);
    const ack = await admin(s, token, "POST", `${SHOP}:acknowledgeUserDataCollection`, {});
    expect(ack.status).toBe(404);
    expect(rpcMessage(ack)).toBe(
      "POST /v1beta/properties/{propertiesId}:acknowledgeUserDataCollection is a real Admin API method that this sandbox does not emulate.",
    );
    expect(rpcMessage(await admin(s, token, "GET", "/v1beta/nothing"))).toMatch(
      /was not found on this server/,
    );
  });

  it("refuses a malformed id in the path of an emulated method as INVALID_ARGUMENT, once authenticated", async () => {
    const s = sandbox();
    const token = await accessToken(s, ANALYST);
    const cases = [
      ["GET", "/v1beta/properties/41234567x/customDimensions", "parent", "properties/123", "41234567x"],
      ["GET", `${SHOP}/customDimensions/abc`, "name", "properties/123/customDimensions/123", "abc"],
      ["POST", `${SHOP}/customMetrics/abc:archive`, "name", "properties/123/customMetrics/123", "abc"],
      [
        "GET",
        "/v1beta/properties/x1/dataRetentionSettings",
        "name",
        "properties/123/dataRetentionSettings",
        "x1",
      ],
      ["GET", "/v1beta/accounts/10000l", "name", "accounts/123", "10000l"],
    ] as const;
    for (const [method, path, field, format, id] of cases) {
      const reply = await admin(s, token, method, path);
      expect(reply.status, path).toBe(400);
      expect(rpcStatus(reply)).toBe("INVALID_ARGUMENT");
      expect(rpcMessage(reply)).toBe(
        `The value for the '${field}' field was invalid but must be in format '${format}': "${id}" is not a numeric id.`,
      );
    }
    expect((await admin(s, "not-a-token", "GET", "/v1beta/accounts/10000l")).status).toBe(401);
  });
});
