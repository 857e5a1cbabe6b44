/**
 * Reviewer's findings on "Merge sandbox-apis" (issue 8, "The sandbox: the rest of the APIs people use").
 * Each test states what the real service does (with its source) and fails on the merged code.
 * Sources: REAL-API.md and its real-api/ definitions; AdobeDocs/marketo-developer.en @ c631b7c3
 * (help/rest-api/bulk-extract.md, swagger-mapi.json); the analyticsadmin v1beta discovery document;
 * support.google.com/analytics/answer/9305176 (Trash); RFC 7233 §2.1.
 */
import nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MarketoConnector } from "../../src/connectors/marketo/connector.js";
import { type GoogleSandbox, startGoogleSandbox } from "../../src/sandbox/google/index.js";
import { ANALYST, accessToken, admin } from "../helpers/google-sandbox.js";
import { type Harness, jsonInit, startHarness } from "../helpers/marketo-sandbox.js";
import { expectWireShape } from "../helpers/wire/schemas.js";

beforeAll(() => {
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1|localhost/);
});
afterAll(() => {
  nock.enableNetConnect();
});

const NOW = Date.parse("2025-03-03T15:00:00Z");
const DAY = 86_400_000;

describe("GA4 Admin sandbox", () => {
  let s: GoogleSandbox | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });
  const start = async () => {
    s = await startGoogleSandbox({ now: () => Date.parse("2025-03-01T12:00:00.000Z") });
    return { sb: s, token: await accessToken(s, ANALYST) };
  };

  it("does not call an emulated method 'not emulated' when an id in the path is mistyped", async () => {
    // The method is served (customDimensions list); only the property id "41234567x" is wrong. The sandbox's
    // own Data API answers the same typo with 400 "Invalid property ID"; the Admin side claims the method
    // is not emulated, which sends users to test against the real service for no reason.
    const { sb, token } = await start();
    for (const path of [
      "/v1beta/properties/41234567x/customDimensions",
      "/v1beta/properties/412345671/customDimensions/abc",
      "/v1beta/accounts/10000l",
    ]) {
      const reply = await admin(sb, token, "GET", path);
      expect(JSON.stringify(reply.body), path).not.toContain("does not emulate");
    }
  });

  it("refuses to create a property under an account that was moved to the trash", async () => {
    // accounts.delete trashes the account "and all child resources (eg: Properties …)" (discovery doc);
    // restoring an account restores its properties (GA Help 9305176). A trashed account takes no new ones.
    const { sb, token } = await start();
    expect((await admin(sb, token, "DELETE", "/v1beta/accounts/100001")).status).toBe(200);
    const created = await admin(sb, token, "POST", "/v1beta/properties", {
      parent: "accounts/100001",
      displayName: "After delete",
      timeZone: "America/New_York",
    });
    expect(created.status).not.toBe(200);
  });

  it("no longer lists the properties of a trashed account as live ones", async () => {
    // accountSummaries already hides them; properties.list (without showDeleted) still lists them live.
    const { sb, token } = await start();
    await admin(sb, token, "DELETE", "/v1beta/accounts/100001");
    const listed = await admin(sb, token, "GET", "/v1beta/properties?filter=parent:accounts/100001");
    const live = ((listed.body.properties ?? []) as { deleteTime?: string }[]).filter((p) => !p.deleteTime);
    expect(live).toEqual([]);
  });

  it("does not tell a user to move to Analytics 360 for a user-data retention 360 does not offer", async () => {
    // Discovery doc, DataRetentionSettings: TWENTY_SIX/THIRTY_EIGHT/FIFTY_MONTHS are "Available to 360
    // properties only. Available for event data only." For userDataRetention no upgrade helps.
    const { sb, token } = await start();
    const reply = await admin(
      sb,
      token,
      "PATCH",
      "/v1beta/properties/412345671/dataRetentionSettings?updateMask=user_data_retention",
      { userDataRetention: "TWENTY_SIX_MONTHS" },
    );
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.body)).not.toMatch(/only available to Google Analytics 360/);
  });
});

describe("schema validation of the wire tests", () => {
  const exportStatus = {
    exportId: "ce45a7a1-f19d-4ce2-882c-a3c795940a7d",
    format: "CSV",
    status: "Created",
    createdAt: "2025-03-03T15:00:00Z",
  };

  it("refuses an invented member in a fixed Marketo shape (ExportResponse)", () => {
    // Swagger definitions are open objects and wire-schemas.ts never closes them, so a misspelt or
    // invented field in any Marketo answer passes "validated against the Swagger".
    const body = { requestId: "e42b#1", success: true, result: [{ ...exportStatus, fileSizeBytes: 1 }] };
    expect(() =>
      expectWireShape("marketo-mapi", "GET /bulk/v1/leads/export/{exportId}/status.json", body),
    ).toThrow();
  });

  it("refuses an Asset answer without the envelope every Asset answer has", () => {
    // REAL-API A3: the Asset envelope always has success, errors:[], warnings:[] and requestId. The Asset
    // Swagger marks none of them required and no wire exception adds them, so `{}` passes.
    expect(() => expectWireShape("marketo-asset", "GET /rest/asset/v1/staticList/{id}.json", {})).toThrow();
  });

  it("refuses a GA4 resource without its required fields", () => {
    // Discovery documents carry "Required." in descriptions only; fromDiscovery() never turns it into
    // `required`, so an empty CustomDimension (no parameterName, displayName or scope) passes.
    expect(() =>
      expectWireShape(
        "ga4-admin",
        "GET /v1beta/properties/{propertiesId}/customDimensions/{customDimensionsId}",
        {},
      ),
    ).toThrow();
  });
});

describe("Marketo bulk extract", () => {
  let clock = NOW;
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });
  const start = async () => {
    clock = NOW;
    h = await startHarness({
      leadCount: 200,
      now: () => clock,
      bulkJobMs: 60_000,
      tokenTtlSeconds: 30 * 86_400,
    });
    return h;
  };
  const body = { fields: ["id", "email"], filter: { staticListId: 1002 } };
  const createJob = async (x: Harness) =>
    (await x.call("/bulk/v1/leads/export/create.json", jsonInit("POST", body))).result?.[0]
      ?.exportId as string;
  const file = (x: Harness, id: string, range?: string) =>
    fetch(`${x.sb.url}/bulk/v1/leads/export/${id}/file.json`, {
      headers: { authorization: `Bearer ${x.token}`, ...(range ? { range } : {}) },
    });

  it("no longer serves an export file after its seven-day retention", async () => {
    // bulk-extract.md "Limits": "File retention period: seven days". The file endpoint answers 404 with a
    // plain-text message for a job whose file is not available.
    const x = await start();
    const id = await createJob(x);
    await x.call(`/bulk/v1/leads/export/${id}/enqueue.json`, { method: "POST" });
    clock += 61_000;
    expect((await file(x, id)).status).toBe(200);
    clock += 8 * DAY;
    expect((await file(x, id)).status).toBe(404);
  });

  it("reports no finishedAt for a cancelled job", async () => {
    // swagger-mapi ExportResponse.finishedAt: "This will have value only when status is "Completed" or
    // "Failed", otherwise null"; bulk-extract.md's cancel example has exportId, status, createdAt, format.
    const x = await start();
    const id = await createJob(x);
    const cancelled = await x.call(`/bulk/v1/leads/export/${id}/cancel.json`, { method: "POST" });
    expect(cancelled.result?.[0]).toMatchObject({ status: "Cancelled" });
    expect(cancelled.result?.[0]).not.toHaveProperty("finishedAt");
  });

  it("ignores a syntactically invalid Range (last byte before first) and sends the whole file", async () => {
    // bulk-extract.md: Range "as defined in RFC 7233". RFC 7233 §2.1: a last-byte-pos below first-byte-pos
    // makes the byte-range-spec invalid, and the recipient MUST ignore the header (200, whole file); 416 is
    // for a valid but unsatisfiable range.
    const x = await start();
    const id = await createJob(x);
    await x.call(`/bulk/v1/leads/export/${id}/enqueue.json`, { method: "POST" });
    clock += 61_000;
    const whole = await file(x, id);
    const size = (await whole.arrayBuffer()).byteLength;
    const reversed = await file(x, id, "bytes=5-2");
    expect(reversed.status).toBe(200);
    expect((await reversed.arrayBuffer()).byteLength).toBe(size);
  });

  it("reads a completed export's file through the connector behind marketo_api_call", async () => {
    // Issue 8: "In the tool, the CSV download is refused today: make it work … Done means … a bulk lead
    // export runs end to end through marketo_api_call (create, enqueue, poll, read the file as records)".
    const x = await startHarness({ leadCount: 50, bulkJobMs: 1 });
    h = x;
    const marketo = new MarketoConnector({
      clientId: x.sb.clientId,
      clientSecret: x.sb.clientSecret,
      restEndpoint: x.sb.restEndpoint,
    });
    const created = await marketo.request({
      method: "POST",
      path: "/bulk/v1/leads/export/create.json",
      body,
    });
    const id = (created.result[0] as { exportId: string }).exportId;
    await marketo.request({ method: "POST", path: `/bulk/v1/leads/export/${id}/enqueue.json` });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const status = await marketo.request({ method: "GET", path: `/bulk/v1/leads/export/${id}/status.json` });
    expect(status.result[0]).toMatchObject({ status: "Completed" });
    await expect(
      marketo.request({ method: "GET", path: `/bulk/v1/leads/export/${id}/file.json` }),
    ).resolves.toBeDefined();
  });
});
