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
const KEY_EVENTS = "/v1beta/properties/412345671/keyEvents";
const STREAMS = "/v1beta/properties/412345671/dataStreams";

describe("Admin API: key events", () => {
  const sandbox = withSandbox({ now: () => NOW });

  it("creates, refuses a duplicate with 409, lists, gets and deletes", async () => {
    const s = sandbox();
    const token = await accessToken(s, EDITOR);
    const created = await admin(s, token, "POST", KEY_EVENTS, {
      eventName: "add_to_cart",
      countingMethod: "ONCE_PER_SESSION",
      defaultValue: { numericValue: 4.5, currencyCode: "USD" },
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      name: expect.stringMatching(/^properties\/412345671\/keyEvents\/\d+$/),
      eventName: "add_to_cart",
      createTime: "2025-03-01T12:00:00.000Z",
      deletable: true,
      custom: true,
      countingMethod: "ONCE_PER_SESSION",
      defaultValue: { numericValue: 4.5, currencyCode: "USD" },
    });

    const duplicate = await admin(s, token, "POST", KEY_EVENTS, {
      eventName: "add_to_cart",
      countingMethod: "ONCE_PER_EVENT",
    });
    expect(duplicate.status).toBe(409);
    expect(rpcStatus(duplicate)).toBe("ALREADY_EXISTS");

    const list = await admin(s, token, "GET", KEY_EVENTS);
    const names = (list.body.keyEvents as { eventName: string }[]).map((k) => k.eventName);
    expect(names).toEqual(["purchase", "sign_up", "add_to_cart"]);
    // purchase is a default GA event: custom is false and therefore omitted.
    expect((list.body.keyEvents as Record<string, unknown>[])[0]).not.toHaveProperty("custom");

    const path = `/v1beta/${String(created.body.name)}`;
    expect((await admin(s, token, "GET", path)).body).toEqual(created.body);
    const removed = await admin(s, token, "DELETE", path);
    expect(removed).toMatchObject({ status: 200, body: {} });
    expect((await admin(s, token, "GET", path)).status).toBe(404);
    expect((await admin(s, token, "DELETE", path)).status).toBe(404);
  });

  it("requires countingMethod and a valid eventName", async () => {
    const s = sandbox();
    const token = await accessToken(s, EDITOR);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ eventName: "newsletter_signup" }, /countingMethod is required/],
      [
        { eventName: "newsletter_signup", countingMethod: "COUNTING_METHOD_UNSPECIFIED" },
        /countingMethod is required/,
      ],
      [
        { eventName: "newsletter_signup", countingMethod: "ALWAYS" },
        /Invalid value at 'key_event.counting_method'/,
      ],
      [{ countingMethod: "ONCE_PER_EVENT" }, /eventName is required/],
      [{ eventName: "1st-visit", countingMethod: "ONCE_PER_EVENT" }, /eventName "1st-visit" is invalid/],
      [{ eventName: "google_thing", countingMethod: "ONCE_PER_EVENT" }, /reserved prefixes/],
      [
        { eventName: "a", countingMethod: "ONCE_PER_EVENT", defaultValue: { numericValue: 1 } },
        /currencyCode/,
      ],
      [{ eventName: "a", countingMethod: "ONCE_PER_EVENT", conversion: true }, /Unknown name "conversion"/],
    ];
    for (const [body, message] of cases) {
      const reply = await admin(s, token, "POST", KEY_EVENTS, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(rpcMessage(reply)).toMatch(message);
    }
  });

  it("enforces roles and scopes, and patches countingMethod with an updateMask", async () => {
    const s = sandbox();
    const viewer = await accessToken(s, VIEWER);
    expect((await admin(s, viewer, "GET", KEY_EVENTS)).status).toBe(200);
    const denied = await admin(s, viewer, "POST", KEY_EVENTS, {
      eventName: "x1",
      countingMethod: "ONCE_PER_EVENT",
    });
    expect(denied.status).toBe(403);
    expect(rpcMessage(denied)).toBe("The caller does not have permission");
    const readonly = await accessToken(s, ANALYST, [SCOPE_READONLY]);
    const scoped = await admin(s, readonly, "POST", KEY_EVENTS, {
      eventName: "x1",
      countingMethod: "ONCE_PER_EVENT",
    });
    expect(rpcMessage(scoped)).toBe("Request had insufficient authentication scopes.");
    // The viewer has no role on account 100002 at all.
    expect((await admin(s, viewer, "GET", "/v1beta/properties/423456787/keyEvents")).status).toBe(403);

    const editor = await accessToken(s, EDITOR);
    const list = await admin(s, editor, "GET", KEY_EVENTS);
    const purchase = (list.body.keyEvents as { name: string }[])[0]?.name ?? "";
    const noMask = await admin(s, editor, "PATCH", `/v1beta/${purchase}`, {
      countingMethod: "ONCE_PER_SESSION",
    });
    expect(noMask.status).toBe(400);
    const patched = await admin(s, editor, "PATCH", `/v1beta/${purchase}?updateMask=counting_method`, {
      countingMethod: "ONCE_PER_SESSION",
    });
    expect(patched.body).toMatchObject({ eventName: "purchase", countingMethod: "ONCE_PER_SESSION" });
    const rename = await admin(s, editor, "PATCH", `/v1beta/${purchase}?updateMask=event_name`, {
      eventName: "buy",
    });
    expect(rename.status).toBe(400); // eventName is immutable
  });

  it("serves the deprecated conversionEvents view of the same key events", async () => {
    const s = sandbox();
    const token = await accessToken(s, ANALYST);
    const list = await admin(s, token, "GET", "/v1beta/properties/412345674/conversionEvents");
    const items = list.body.conversionEvents as { name: string; eventName: string }[];
    expect(items.map((c) => c.eventName)).toEqual(["generate_lead", "file_download"]);
    expect(items[0]?.name).toMatch(/^properties\/412345674\/conversionEvents\/\d+$/);
    expect((await admin(s, token, "GET", `/v1beta/${items[0]?.name}`)).body.eventName).toBe("generate_lead");
  });

  it("pages key events and omits the list key when a page is empty", async () => {
    const s = sandbox();
    const token = await accessToken(s, ANALYST);
    const first = await admin(s, token, "GET", `${KEY_EVENTS}?pageSize=1`);
    expect(first.body.keyEvents).toHaveLength(1);
    const second = await admin(
      s,
      token,
      "GET",
      `${KEY_EVENTS}?pageSize=1&pageToken=${first.body.nextPageToken}`,
    );
    expect(second.body.keyEvents).toHaveLength(1);
    expect(second.body).not.toHaveProperty("nextPageToken");
    const created = await admin(s, token, "POST", "/v1beta/properties", {
      parent: "accounts/100002",
      displayName: "Empty",
      timeZone: "Asia/Tokyo",
    });
    expect((await admin(s, token, "GET", `/v1beta/${created.body.name}/keyEvents`)).body).toEqual({});
  });
});

describe("Admin API: data streams", () => {
  const sandbox = withSandbox({ now: () => NOW });

  it("lists the seeded web stream with a measurement id", async () => {
    const s = sandbox();
    const token = await accessToken(s, VIEWER);
    const list = await admin(s, token, "GET", STREAMS);
    const streams = list.body.dataStreams as Record<string, unknown>[];
    expect(streams).toHaveLength(1);
    expect(streams[0]).toMatchObject({
      type: "WEB_DATA_STREAM",
      displayName: "Web Store",
      webStreamData: {
        measurementId: expect.stringMatching(/^G-[A-Z0-9]{10}$/),
        defaultUri: "https://shop.sandbox.example",
      },
    });
  });

  it("creates, gets, patches and deletes web and app streams", async () => {
    const s = sandbox();
    const token = await accessToken(s, EDITOR);
    const web = await admin(s, token, "POST", STREAMS, {
      type: "WEB_DATA_STREAM",
      displayName: "Landing pages",
      webStreamData: { defaultUri: "https://landing.sandbox.example" },
    });
    expect(web.status).toBe(200);
    expect(web.body).toEqual({
      name: expect.stringMatching(/^properties\/412345671\/dataStreams\/\d+$/),
      webStreamData: {
        measurementId: expect.stringMatching(/^G-[A-Z0-9]{10}$/),
        defaultUri: "https://landing.sandbox.example",
      },
      type: "WEB_DATA_STREAM",
      displayName: "Landing pages",
      createTime: "2025-03-01T12:00:00.000Z",
      updateTime: "2025-03-01T12:00:00.000Z",
    });
    const path = `/v1beta/${String(web.body.name)}`;
    expect((await admin(s, token, "GET", path)).body).toEqual(web.body);

    const patched = await admin(
      s,
      token,
      "PATCH",
      `${path}?updateMask=display_name,web_stream_data.default_uri`,
      {
        displayName: "Landing",
        webStreamData: { defaultUri: "https://lp.sandbox.example" },
      },
    );
    expect(patched.body).toMatchObject({
      displayName: "Landing",
      webStreamData: {
        defaultUri: "https://lp.sandbox.example",
        measurementId: (web.body.webStreamData as { measurementId: string }).measurementId,
      },
    });
    expect(
      (await admin(s, token, "PATCH", `${path}?updateMask=type`, { type: "IOS_APP_DATA_STREAM" })).status,
    ).toBe(400);

    const android = await admin(s, token, "POST", STREAMS, {
      type: "ANDROID_APP_DATA_STREAM",
      displayName: "Android",
      androidAppStreamData: { packageName: "com.sandbox.shop" },
    });
    expect(android.body.androidAppStreamData).toMatchObject({ packageName: "com.sandbox.shop" });
    expect((await admin(s, token, "GET", STREAMS)).body.dataStreams).toHaveLength(3);

    expect(await admin(s, token, "DELETE", path)).toMatchObject({ status: 200, body: {} });
    expect((await admin(s, token, "GET", path)).status).toBe(404);
  });

  it("validates type, the matching stream data, displayName and defaultUri", async () => {
    const s = sandbox();
    const token = await accessToken(s, EDITOR);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ displayName: "x", webStreamData: {} }, /type is required/],
      [{ type: "WEB_DATA_STREAM", webStreamData: {} }, /displayName is required/],
      [{ type: "WEB_DATA_STREAM", displayName: "x" }, /webStreamData is required/],
      [
        { type: "WEB_DATA_STREAM", displayName: "x", webStreamData: { defaultUri: "not a uri" } },
        /not a valid URI/,
      ],
      [
        { type: "IOS_APP_DATA_STREAM", webStreamData: {}, iosAppStreamData: { bundleId: "a.b" } },
        /cannot be set/,
      ],
      [{ type: "ANDROID_APP_DATA_STREAM", androidAppStreamData: { packageName: "nodots" } }, /packageName/],
    ];
    for (const [body, message] of cases) {
      const reply = await admin(s, token, "POST", STREAMS, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(rpcMessage(reply)).toMatch(message);
    }
    const viewer = await accessToken(s, VIEWER);
    const denied = await admin(s, viewer, "POST", STREAMS, {
      type: "WEB_DATA_STREAM",
      displayName: "x",
      webStreamData: {},
    });
    expect(denied.status).toBe(403);
  });
});
