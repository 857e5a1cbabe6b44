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
 *   response example).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
