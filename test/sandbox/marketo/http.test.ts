import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, type Harness, jsonInit, startHarness } from "../../helpers/marketo-sandbox.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 50 });
});
afterAll(async () => {
  await h.close();
});

/** Sends a raw request path (fetch would normalise "//rest"). */
function rawGet(path: string, token: string): Promise<{ status: number; body: string }> {
  const url = new URL(h.sb.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: "GET",
        headers: { authorization: `Bearer ${token}` },
      },
      (res) => {
        let body = "";
        res.on("data", (c: Buffer) => {
          body += c.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("Marketo sandbox protocol behaviour", () => {
  it("answers unknown paths, including endpoints that only exist in folklore, with 610 in HTTP 200", async () => {
    for (const path of [
      "/rest/v1/nope.json",
      "/rest/asset/v1/program/1001/stats.json",
      "/rest/asset/v1/landingPage/1001/stats.json",
      "/rest/v1/activities/emailbounced.json",
      "/rest/v1/activities/emailopened.json",
      "/rest/v1/programs.json",
    ]) {
      const res = await fetch(`${h.sb.url}${path}`, { headers: { authorization: `Bearer ${h.token}` } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toMatchObject({
        success: false,
        errors: [{ code: "610", message: "Requested resource not found" }],
      });
    }
  });

  it("uses the asset envelope (errors:[] and warnings:[] always) for asset paths", async () => {
    const body = await h.call("/rest/asset/v1/program/1001/stats.json");
    expect(body.warnings).toEqual([]);
    expect(Object.keys(body).sort()).toEqual(["errors", "requestId", "success", "warnings"]);
    const lead = await h.call("/rest/v1/leads/describe.json");
    expect(lead).not.toHaveProperty("errors");
    expect(lead).not.toHaveProperty("warnings");
  });

  it("never answers a //rest path as valid", async () => {
    const ok = await rawGet("/rest/v1/leads/describe.json", h.token);
    expect(JSON.parse(ok.body).success).toBe(true);
    const doubled = await rawGet("//rest/v1/leads/describe.json", h.token);
    expect(JSON.parse(doubled.body).errors[0].code).toBe("610");
  });

  it("answers a known path with the wrong method with 605", async () => {
    expect(errorCode(await h.call("/rest/v1/leads/describe.json", { method: "DELETE" }))).toBe("605");
    expect(errorCode(await h.call("/rest/v1/campaigns/1001/trigger.json"))).toBe("605");
  });

  it("answers a Lead DB POST with a non-JSON content type with 612, and malformed JSON with 609", async () => {
    const form = await h.call("/rest/v1/leads.json", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: '{"input":[{"email":"x@example.com"}]}',
    });
    expect(errorCode(form)).toBe("612");
    const bad = await h.call("/rest/v1/leads.json", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(errorCode(bad)).toBe("609");
    const asset = await h.call("/rest/asset/v1/email/2005/approveDraft.json", jsonInit("POST", { a: 1 }));
    expect(errorCode(asset)).toBe("612");
  });

  it("treats a form POST with _method=GET as the GET with those parameters", async () => {
    const emails = Array.from({ length: 40 }, (_, i) => `lead${i + 1}@example.com`).join(",");
    const body = await h.call("/rest/v1/leads.json", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        _method: "GET",
        filterType: "email",
        filterValues: emails,
        fields: "email",
      }),
    });
    expect(body.success).toBe(true);
    expect(body.result?.map((l) => l.email)).toEqual(emails.split(","));
    const members = await h.call("/rest/v1/list/1001/leads.json", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "listId=1001&_method=GET",
    });
    expect(members.success).toBe(true);
  });

  it("answers a URI over 8 KB with HTTP 414 and a body over 1 MB with HTTP 413", async () => {
    const long = await fetch(
      `${h.sb.url}/rest/v1/leads.json?filterType=email&filterValues=${"a".repeat(9 * 1024)}`,
      {
        headers: { authorization: `Bearer ${h.token}` },
      },
    );
    expect(long.status).toBe(414);
    await long.text();
    const big = await fetch(`${h.sb.url}/rest/v1/leads.json`, {
      ...jsonInit("POST", { input: [{ email: "a@example.com", firstName: "x".repeat(1024 * 1024) }] }),
      headers: { authorization: `Bearer ${h.token}`, "content-type": "application/json" },
    });
    expect(big.status).toBe(413);
    await big.text();
    // Just under the limit still works.
    const fine = await fetch(
      `${h.sb.url}/rest/v1/leads.json?filterType=email&filterValues=${"a".repeat(7 * 1024)}`,
      {
        headers: { authorization: `Bearer ${h.token}` },
      },
    );
    expect(fine.status).toBe(200);
  });
});
