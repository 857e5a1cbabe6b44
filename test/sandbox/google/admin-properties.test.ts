import { describe, expect, it } from "vitest";
import { SCOPE_EDIT, SCOPE_READONLY } from "../../../src/sandbox/google/types.js";
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
const NEW_PROPERTY = {
  parent: "accounts/100001",
  displayName: "Spring Campaign",
  timeZone: "Europe/Berlin",
  currencyCode: "EUR",
  industryCategory: "SHOPPING",
};

describe("Admin API: authentication and scopes", () => {
  const sandbox = withSandbox({ now: () => NOW });

  it("answers 401 UNAUTHENTICATED without a token or with an unknown one", async () => {
    const s = sandbox();
    const missing = await admin(s, undefined, "GET", "/v1beta/accounts");
    expect(missing.status).toBe(401);
    expect(rpcStatus(missing)).toBe("UNAUTHENTICATED");
    expect(rpcMessage(missing)).toMatch(/^Request is missing required authentication credential/);
    expect(missing.headers.get("www-authenticate")).toContain("Bearer");
    const unknown = await admin(s, "ya29.not-a-token", "GET", "/v1beta/accounts");
    expect(unknown.status).toBe(401);
    expect(rpcMessage(unknown)).toMatch(/^Request had invalid authentication credentials/);
  });

  it("lets a readonly token read but not create (403 ACCESS_TOKEN_SCOPE_INSUFFICIENT)", async () => {
    const s = sandbox();
    const token = await accessToken(s, ANALYST, [SCOPE_READONLY]);
    expect((await admin(s, token, "GET", "/v1beta/properties/412345671")).status).toBe(200);
    const create = await admin(s, token, "POST", "/v1beta/properties", NEW_PROPERTY);
    expect(create.status).toBe(403);
    expect(create.body.error).toMatchObject({
      code: 403,
      status: "PERMISSION_DENIED",
      message: "Request had insufficient authentication scopes.",
      details: [{ reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT", domain: "googleapis.com" }],
    });
    // An openid/email-only token cannot even read.
    const idOnly = await accessToken(s, ANALYST, ["openid", "email"]);
    expect((await admin(s, idOnly, "GET", "/v1beta/accounts")).status).toBe(403);
  });
});

describe("Admin API: accounts and properties", () => {
  const sandbox = withSandbox({ now: () => NOW });

  it("lists only the accounts and summaries the caller can see", async () => {
    const s = sandbox();
    const analyst = await accessToken(s, ANALYST);
    const viewer = await accessToken(s, VIEWER);
    const all = await admin(s, analyst, "GET", "/v1beta/accounts");
    expect((all.body.accounts as { name: string }[]).map((a) => a.name)).toEqual([
      "accounts/100001",
      "accounts/100002",
    ]);
    expect(all.body).not.toHaveProperty("nextPageToken");
    const mine = await admin(s, viewer, "GET", "/v1beta/accountSummaries");
    expect(mine.body.accountSummaries).toEqual([
      expect.objectContaining({ name: "accountSummaries/100001", account: "accounts/100001" }),
    ]);
    const summary = (mine.body.accountSummaries as { propertySummaries: unknown[] }[])[0];
    expect(summary?.propertySummaries).toContainEqual({
      property: "properties/412345671",
      displayName: "Retail Web Store",
      propertyType: "PROPERTY_TYPE_ORDINARY",
      parent: "accounts/100001",
    });
    expect(rpcStatus(await admin(s, viewer, "GET", "/v1beta/accounts/100002"))).toBe("PERMISSION_DENIED");
    expect((await admin(s, viewer, "GET", "/v1beta/accounts/100001")).body.displayName).toBe(
      "Sandbox Retail",
    );
  });

  it("requires the filter to list properties", async () => {
    const s = sandbox();
    const token = await accessToken(s, ANALYST);
    const noFilter = await admin(s, token, "GET", "/v1beta/properties");
    expect(noFilter.status).toBe(400);
    expect(rpcStatus(noFilter)).toBe("INVALID_ARGUMENT");
    expect(rpcMessage(noFilter)).toContain("filter");
    expect((await admin(s, token, "GET", "/v1beta/properties?filter=owner:me")).status).toBe(400);
    const listed = await admin(s, token, "GET", "/v1beta/properties?filter=parent:accounts/100002");
    expect((listed.body.properties as { name: string }[]).map((p) => p.name)).toEqual([
      "properties/423456787",
      "properties/423456789",
    ]);
    const ancestor = await admin(s, token, "GET", "/v1beta/properties?filter=ancestor:accounts/100001");
    expect((ancestor.body.properties as unknown[]).length).toBe(3);
  });

  it("pages with pageSize and nextPageToken, only while more remain", async () => {
    const s = sandbox();
    const token = await accessToken(s, ANALYST);
    const names: string[] = [];
    let pageToken = "";
    let pages = 0;
    do {
      const q = `filter=parent:accounts/100001&pageSize=1${pageToken ? `&pageToken=${pageToken}` : ""}`;
      const page = await admin(s, token, "GET", `/v1beta/properties?${q}`);
      expect(page.status).toBe(200);
      const items = page.body.properties as { name: string }[];
      expect(items).toHaveLength(1);
      names.push(...items.map((p) => p.name));
      pageToken = typeof page.body.nextPageToken === "string" ? page.body.nextPageToken : "";
      pages++;
    } while (pageToken && pages < 10);
    expect(names).toEqual(["properties/412345671", "properties/412345674", "properties/412345680"]);
    expect(pages).toBe(3);

    const first = await admin(s, token, "GET", "/v1beta/properties?filter=parent:accounts/100001&pageSize=1");
    const other = await admin(
      s,
      token,
      "GET",
      `/v1beta/properties?filter=parent:accounts/100002&pageToken=${String(first.body.nextPageToken)}`,
    );
    expect(other.status).toBe(400);
    expect((await admin(s, token, "GET", "/v1beta/accounts?pageToken=garbage")).status).toBe(400);
  });

  it("creates a property as an administrator with Google's output fields", async () => {
    const s = sandbox();
    const token = await accessToken(s, ANALYST);
    const created = await admin(s, token, "POST", "/v1beta/properties", NEW_PROPERTY);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      name: expect.stringMatching(/^properties\/\d+$/),
      propertyType: "PROPERTY_TYPE_ORDINARY",
      createTime: "2025-03-01T12:00:00.000Z",
      updateTime: "2025-03-01T12:00:00.000Z",
      parent: "accounts/100001",
      displayName: "Spring Campaign",
      industryCategory: "SHOPPING",
      timeZone: "Europe/Berlin",
      currencyCode: "EUR",
      serviceLevel: "GOOGLE_ANALYTICS_STANDARD",
      account: "accounts/100001",
    });
    const fetched = await admin(s, token, "GET", `/v1beta/${String(created.body.name)}`);
    expect(fetched.body).toEqual(created.body);
  });

  it("refuses property creation to viewers and editors (403 PERMISSION_DENIED)", async () => {
    const s = sandbox();
    for (const email of [VIEWER, EDITOR]) {
      const token = await accessToken(s, email);
      const reply = await admin(s, token, "POST", "/v1beta/properties", NEW_PROPERTY);
      expect(reply.status, email).toBe(403);
      expect(reply.body.error).toEqual({
        code: 403,
        message: "The caller does not have permission",
        status: "PERMISSION_DENIED",
      });
    }
  });

  it("validates displayName, timeZone, currencyCode, industryCategory and unknown fields", async () => {
    const s = sandbox();
    const token = await accessToken(s, ANALYST);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ timeZone: "Mars/Olympus" }, /timeZone "Mars\/Olympus" is not a valid time zone/],
      [{ timeZone: "+02:00" }, /not a valid time zone/],
      [{ timeZone: undefined }, /timeZone is required/],
      [{ currencyCode: "EURO" }, /currencyCode "EURO" is not a valid currency code/],
      [{ displayName: "x".repeat(101) }, /at most 100/],
      [{ displayName: "" }, /displayName is required/],
      [{ industryCategory: "CASINOS" }, /Invalid value at 'property.industry_category'/],
      [{ displayName: 42 }, /Invalid value at 'property.display_name' \(TYPE_STRING\), 42/],
      [{ colour: "blue" }, /Unknown name "colour" at 'property': Cannot find field/],
      [{ parent: "accounts/abc" }, /parent "accounts\/abc" is invalid/],
    ];
    for (const [change, message] of cases) {
      const reply = await admin(s, token, "POST", "/v1beta/properties", { ...NEW_PROPERTY, ...change });
      expect(reply.status, JSON.stringify(change)).toBe(400);
      expect(rpcStatus(reply)).toBe("INVALID_ARGUMENT");
      expect(rpcMessage(reply)).toMatch(message);
    }
    const alias = await admin(s, token, "POST", "/v1beta/properties", { ...NEW_PROPERTY, timeZone: "UTC" });
    expect(alias.status).toBe(200);
    const { currencyCode: _omitted, ...noCurrency } = NEW_PROPERTY;
    expect((await admin(s, token, "POST", "/v1beta/properties", noCurrency)).body.currencyCode).toBe("USD");
  });

  it("patches only with an updateMask in snake_case", async () => {
    const s = sandbox();
    const token = await accessToken(s, EDITOR);
    const path = "/v1beta/properties/412345674";
    const missing = await admin(s, token, "PATCH", path, { displayName: "Renamed" });
    expect(missing.status).toBe(400);
    expect(rpcMessage(missing)).toMatch(/updateMask is required/);
    const camel = await admin(s, token, "PATCH", `${path}?updateMask=displayName`, {
      displayName: "Renamed",
    });
    expect(camel.status).toBe(400);
    expect(rpcMessage(camel)).toContain('use "display_name"');
    const immutable = await admin(s, token, "PATCH", `${path}?updateMask=parent`, {
      parent: "accounts/100002",
    });
    expect(immutable.status).toBe(400);

    const ok = await admin(s, token, "PATCH", `${path}?updateMask=display_name,time_zone`, {
      displayName: "Help Center EU",
      timeZone: "Europe/Madrid",
      currencyCode: "CHF",
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      displayName: "Help Center EU",
      timeZone: "Europe/Madrid",
      currencyCode: "EUR", // not in the mask: unchanged
      updateTime: "2025-03-01T12:00:00.000Z",
    });
    const bad = await admin(s, token, "PATCH", `${path}?updateMask=time_zone`, { timeZone: "Nowhere/City" });
    expect(bad.status).toBe(400);
    const star = await admin(s, token, "PATCH", `${path}?updateMask=*`, { displayName: "Only name" });
    expect(star.status).toBe(400); // "*" replaces every field, and timeZone is required
    const viewer = await accessToken(s, VIEWER);
    expect(
      (await admin(s, viewer, "PATCH", `${path}?updateMask=display_name`, { displayName: "x" })).status,
    ).toBe(403);
  });

  it("soft-deletes: DELETE returns the trashed property and lists hide it unless showDeleted", async () => {
    const s = sandbox();
    const token = await accessToken(s, ANALYST);
    const deleted = await admin(s, token, "DELETE", "/v1beta/properties/412345680");
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({
      name: "properties/412345680",
      deleteTime: "2025-03-01T12:00:00.000Z",
      expireTime: "2025-04-05T12:00:00.000Z",
    });
    const list = (q: string) =>
      admin(s, token, "GET", `/v1beta/properties?filter=parent:accounts/100001${q}`);
    const visible = ((await list("")).body.properties as { name: string }[]).map((p) => p.name);
    expect(visible).not.toContain("properties/412345680");
    const withDeleted = ((await list("&showDeleted=true")).body.properties as { name: string }[]).map(
      (p) => p.name,
    );
    expect(withDeleted).toContain("properties/412345680");
    expect((await admin(s, token, "GET", "/v1beta/properties/412345680")).body.deleteTime).toBeDefined();
    expect((await admin(s, token, "GET", "/v1beta/properties/412345680/keyEvents")).status).toBe(404);
    const editor = await accessToken(s, EDITOR);
    expect((await admin(s, editor, "DELETE", "/v1beta/properties/412345671")).status).toBe(403);
  });

  it("answers 404 NOT_FOUND for unknown properties and paths, 400 for malformed JSON", async () => {
    const s = sandbox();
    const token = await accessToken(s, ANALYST, [SCOPE_READONLY, SCOPE_EDIT]);
    const unknown = await admin(s, token, "GET", "/v1beta/properties/999999999");
    expect(unknown.status).toBe(404);
    expect(rpcStatus(unknown)).toBe("NOT_FOUND");
    expect((await admin(s, token, "GET", "/v1beta/nothing")).status).toBe(404);
    expect((await admin(s, token, "PUT", "/v1beta/properties/412345671")).status).toBe(404);
    const malformed = await admin(s, token, "POST", "/v1beta/properties", "{not json");
    expect(malformed.status).toBe(400);
    expect(rpcMessage(malformed)).toContain("Invalid JSON payload received");
    expect(s.stats().adminRequests).toBe(4);
  });
});
