/**
 * Lead DB behaviours a move to the real Marketo would expose, each checked against Adobe's Swagger
 * (mapi) response schema and the page it follows:
 * - the long-URI workaround: "change GET to POST, add the _method=GET parameter, and put the query
 *   string in the request body" (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads
 *   "Query"; error-codes.md 414: "retried as a POST with param `_method=GET` in the URL, and the rest of
 *   the query string in the body");
 * - custom objects by compound key: `POST /rest/v1/customobjects/{apiName}.json?_method=GET` with a JSON
 *   body of filterType, fields and input (custom-objects.md "Query"; Swagger getCustomObjectsUsingGET);
 * - filterType is required on a custom object query (Swagger: `required: true`): 701 "filterType
 *   cannot be blank" (error-codes.md 701 "%s cannot be blank");
 * - Push Lead answers are `{id, status}` per record, with no `seq` (leads.md "Push Lead to Marketo"
 *   response example);
 * - the seeded leads carry Marketo's standard source fields and the UTM custom fields instances add
 *   (list-of-standard-fields.md; describe.json, Swagger LeadAttribute), consistent with the GA4
 *   sandbox's sources and mediums (src/sandbox/traffic.ts), so that leads from google last month can be
 *   set beside GA sessions from google (the GA side is checked against the Data API discovery document);
 * - the seeded leads carry the mailability fields of a real instance's lead record (emailInvalid and its
 *   cause, unsubscribedReason, marketingSuspended, blackListed, emailSuspended and its time; trials s7 N17
 *   and s8 N29 found none), each cause set exactly when its flag is.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRAFFIC } from "../../../src/sandbox/traffic.js";
import { dims, rowsOf, SHOP, startSandbox } from "../../helpers/ga-data-sandbox.js";
import { errorCode, type Harness, jsonInit, startHarness } from "../../helpers/marketo-sandbox.js";
import { expectWireShape } from "../../helpers/wire/schemas.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 300 });
});
afterAll(async () => {
  await h.close();
});

async function mapi(operation: string, path: string, init?: RequestInit) {
  const body = await h.call(path, init);
  expectWireShape("marketo-mapi", operation, body);
  return body;
}

const form = (fields: Record<string, string>): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});

describe("the long-URI workaround, _method=GET in the query with the parameters in a form body", () => {
  it("reads leads as the GET would", async () => {
    const ids = Array.from({ length: 250 }, (_, i) => i + 1).join(",");
    const viaPost = await mapi(
      "GET /rest/v1/leads.json",
      "/rest/v1/leads.json?_method=GET",
      form({ filterType: "id", filterValues: ids, fields: "email,lastName" }),
    );
    const viaGet = await h.call(
      `/rest/v1/leads.json?filterType=id&filterValues=${ids}&fields=email,lastName`,
    );
    expect(viaPost.success).toBe(true);
    expect(viaPost.result).toEqual(viaGet.result);
    expect(viaPost.result?.[0]).toEqual({ id: 1, email: "lead1@example.com", lastName: expect.any(String) });
  });

  it("reads custom objects by their key the same way", async () => {
    const known = await h.call(
      "/rest/v1/customobjects/car_c.json?filterType=leadId&filterValues=1,2,3,4,5,6",
    );
    const vins = known.result?.map((r) => String(r.vin)) ?? [];
    expect(vins.length).toBeGreaterThan(0);
    const viaPost = await mapi(
      "GET /rest/v1/customobjects/{customObjectName}.json",
      "/rest/v1/customobjects/car_c.json?_method=GET",
      form({ filterType: "dedupeFields", filterValues: vins.join(",") }),
    );
    expect(viaPost.result?.map((r) => r.vin)).toEqual(vins);
  });
});

describe("custom objects by compound key: a JSON body of filterType, fields and input", () => {
  it("answers the records the input objects name, with the fields asked for", async () => {
    const known = await h.call(
      "/rest/v1/customobjects/car_c.json?filterType=leadId&filterValues=1,2,3,4,5,6&fields=vin,leadId",
    );
    const records = known.result ?? [];
    const answer = await mapi(
      "GET /rest/v1/customobjects/{customObjectName}.json",
      "/rest/v1/customobjects/car_c.json?_method=GET",
      jsonInit("POST", {
        filterType: "dedupeFields",
        fields: ["marketoGUID", "vin", "leadId"],
        input: [...records.map((r) => ({ vin: r.vin })), { vin: "NO-SUCH-VIN" }],
      }),
    );
    expect(answer.result?.map((r) => [r.vin, r.leadId])).toEqual(records.map((r) => [r.vin, r.leadId]));
    expect(answer.result?.[0]).toMatchObject({ seq: 0, marketoGUID: expect.any(String) });
  });

  it("refuses a compound query without filterType or without input", async () => {
    const noType = await mapi(
      "GET /rest/v1/customobjects/{customObjectName}.json",
      "/rest/v1/customobjects/car_c.json?_method=GET",
      jsonInit("POST", { input: [{ vin: "X" }] }),
    );
    expect(noType.errors).toEqual([{ code: "701", message: "filterType cannot be blank" }]);
    const noInput = await h.call(
      "/rest/v1/customobjects/car_c.json?_method=GET",
      jsonInit("POST", { filterType: "dedupeFields" }),
    );
    expect(errorCode(noInput)).toBe("701");
  });
});

describe("a custom object query needs a filterType", () => {
  it("is refused with 701 when the query string has none", async () => {
    const refused = await mapi(
      "GET /rest/v1/customobjects/{customObjectName}.json",
      "/rest/v1/customobjects/car_c.json?filterValues=ABC",
    );
    expect(refused.success).toBe(false);
    expect(refused.errors).toEqual([{ code: "701", message: "filterType cannot be blank" }]);
  });
});

describe("Push Lead answers", () => {
  it("carry id and status per record, as Adobe's example, and no seq", async () => {
    const program = (await h.call("/rest/asset/v1/program/1004.json")).result?.[0]?.name as string;
    const pushed = await mapi(
      "POST /rest/v1/leads/push.json",
      "/rest/v1/leads/push.json",
      jsonInit("POST", {
        programName: program,
        input: [{ email: "push.fidelity@example.com" }, { email: "lead3@example.com" }],
      }),
    );
    expect(pushed.result).toEqual([
      { id: expect.any(Number), status: "created" },
      { id: 3, status: "updated" },
    ]);
  });
});

const SOURCE_FIELDS = [
  "leadSource",
  "originalSourceType",
  "originalSourceInfo",
  "originalReferrer",
  "originalSearchEngine",
  "utmSource",
  "utmMedium",
  "utmCampaign",
];

describe("the leads' source fields", () => {
  it("are in describe.json: the standard ones read-only, the UTM ones custom and searchable", async () => {
    const described = await mapi("GET /rest/v1/leads/describe.json", "/rest/v1/leads/describe.json");
    const byName = new Map(
      (described.result ?? []).map((f) => [(f.rest as { name: string }).name, f] as const),
    );
    for (const name of SOURCE_FIELDS) expect(byName.has(name), name).toBe(true);
    expect(byName.get("originalSourceType")).toMatchObject({
      displayName: "Original Source Type",
      dataType: "string",
      rest: { readOnly: true },
    });
    expect(byName.get("utmSource")).toMatchObject({ displayName: "UTM Source", rest: { readOnly: false } });
    const two = await mapi("GET /rest/v1/leads/describe2.json", "/rest/v1/leads/describe2.json");
    const searchable = ((two.result?.[0]?.searchableFields ?? []) as string[][]).map(([n]) => n);
    expect(searchable).toEqual(expect.arrayContaining(["utmSource", "utmMedium", "utmCampaign"]));
  });

  it("tell where each lead came from, in the GA4 sandbox's sources and mediums", async () => {
    const ids = Array.from({ length: 300 }, (_, i) => i + 1).join(",");
    const leads = await mapi(
      "GET /rest/v1/leads.json",
      `/rest/v1/leads.json?filterType=id&filterValues=${ids}&fields=${SOURCE_FIELDS.join(",")}`,
    );
    const rows = leads.result ?? [];
    expect(rows).toHaveLength(300);
    const tagged = new Set(
      TRAFFIC.flatMap((t) => (t.utm ? [`${t.utm.source}/${t.utm.medium}/${t.utm.campaign}`] : [])),
    );
    const referrers = new Set(TRAFFIC.map((t) => t.referrer ?? null));
    for (const lead of rows) {
      expect(["Web form fill-out", "List import"]).toContain(lead.originalSourceType);
      expect(typeof lead.leadSource).toBe("string");
      if (lead.utmSource !== null)
        expect(tagged).toContain(`${lead.utmSource}/${lead.utmMedium}/${lead.utmCampaign}`);
      expect(referrers.has(lead.originalReferrer as string | null), String(lead.originalReferrer)).toBe(true);
      if (lead.originalSourceType === "List import") {
        expect([lead.utmSource, lead.originalReferrer, lead.originalSearchEngine]).toEqual([
          null,
          null,
          null,
        ]);
      }
      if (lead.originalSearchEngine === "Google")
        expect(lead.originalReferrer).toBe("https://www.google.com/");
      if (lead.utmMedium === "cpc") expect(lead.leadSource).toBe("Paid Search");
    }
    const kinds = new Set(rows.map((l) => l.originalSourceType));
    expect(kinds).toEqual(new Set(["Web form fill-out", "List import"]));
    expect(rows.some((l) => l.utmSource === "newsletter")).toBe(true);
    expect(rows.some((l) => l.originalSearchEngine === "Google" && l.utmSource === null)).toBe(true);
  });

  it("a lead the API creates is of source type Web service API", async () => {
    const created = await h.call(
      "/rest/v1/leads.json",
      jsonInit("POST", { action: "createOnly", input: [{ email: "api.origin@example.com" }] }),
    );
    const id = created.result?.[0]?.id as number;
    const lead = await mapi(
      "GET /rest/v1/lead/{leadId}.json",
      `/rest/v1/lead/${id}.json?fields=originalSourceType,originalSourceInfo`,
    );
    expect(lead.result?.[0]).toEqual({
      id,
      originalSourceType: "Web service API",
      originalSourceInfo: "Web service API",
    });
  });
});

describe("leads from google last month beside GA sessions from google", () => {
  it("match on source, medium and campaign", async () => {
    const now = Date.UTC(2025, 5, 15, 18, 0, 0);
    const marketo = await startHarness({ now: () => now });
    const ga = await startSandbox();
    try {
      const fromGoogle = await marketo.call(
        "/rest/v1/leads.json?filterType=utmSource&filterValues=google&fields=createdAt,utmMedium,utmCampaign",
      );
      expectWireShape("marketo-mapi", "GET /rest/v1/leads.json", fromGoogle);
      const lastMonth = (fromGoogle.result ?? []).filter(
        (l) => Date.parse(String(l.createdAt)) > now - 30 * 86_400_000,
      );
      expect(lastMonth.length).toBeGreaterThan(0);
      const { status, json } = await ga.post(`/v1beta/properties/${SHOP}:runReport`, {
        dateRanges: [{ startDate: "30daysAgo", endDate: "yesterday" }],
        dimensions: [
          { name: "sessionManualSource" },
          { name: "sessionManualMedium" },
          { name: "sessionManualCampaignName" },
        ],
        metrics: [{ name: "sessions" }],
        dimensionFilter: { filter: { fieldName: "sessionManualSource", stringFilter: { value: "google" } } },
      });
      expect(status).toBe(200);
      expectWireShape("ga4-data", "POST /v1beta/properties/{propertiesId}:runReport", json);
      const sessions = new Set(rowsOf(json).map((r) => dims(r).slice(1).join("/")));
      expect(sessions.size).toBeGreaterThan(0);
      for (const lead of lastMonth) expect(sessions).toContain(`${lead.utmMedium}/${lead.utmCampaign}`);
    } finally {
      await marketo.close();
      ga.close();
    }
  });
});

const MAILABILITY: [string, string][] = [
  ["emailInvalid", "boolean"],
  ["emailInvalidCause", "string"],
  ["unsubscribedReason", "string"],
  ["marketingSuspended", "boolean"],
  ["marketingSuspendedCause", "string"],
  ["blackListed", "boolean"],
  ["blackListedCause", "string"],
  ["emailSuspended", "boolean"],
  ["emailSuspendedCause", "string"],
  ["emailSuspendedAt", "datetime"],
];

describe("the leads' mailability fields", () => {
  it("are in describe.json with their types, and each cause is set exactly when its flag is", async () => {
    const described = await mapi("GET /rest/v1/leads/describe.json", "/rest/v1/leads/describe.json");
    const types = new Map(
      (described.result ?? []).map((f) => [(f.rest as { name: string }).name, f.dataType]),
    );
    for (const [name, type] of MAILABILITY) expect(types.get(name), name).toBe(type);
    const ids = Array.from({ length: 300 }, (_, i) => i + 1).join(",");
    const fields = ["unsubscribed", ...MAILABILITY.map(([name]) => name)].join(",");
    const leads =
      (
        await mapi(
          "GET /rest/v1/leads.json",
          `/rest/v1/leads.json?filterType=id&filterValues=${ids}&fields=${fields}`,
        )
      ).result ?? [];
    expect(leads).toHaveLength(300);
    for (const lead of leads) {
      for (const [flag, cause] of [
        ["emailInvalid", "emailInvalidCause"],
        ["marketingSuspended", "marketingSuspendedCause"],
        ["blackListed", "blackListedCause"],
        ["emailSuspended", "emailSuspendedCause"],
      ] as const) {
        expect(typeof lead[flag], flag).toBe("boolean");
        expect(lead[cause] !== null, `${cause} of lead ${lead.id}`).toBe(lead[flag]);
      }
      if (lead.unsubscribed !== true) expect(lead.unsubscribedReason).toBeNull();
      if (lead.emailSuspended === true)
        expect(String(lead.emailSuspendedAt)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    }
    // Some of each kind that a deliverability question counts (4 % invalid, 2 % suspended of 300).
    expect(leads.filter((l) => l.emailInvalid === true).length).toBeGreaterThan(3);
    expect(leads.filter((l) => l.emailSuspended === true).length).toBeGreaterThan(0);
  });
});
