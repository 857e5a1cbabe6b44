import { describe, expect, it } from "vitest";
import type { GoogleSandbox } from "../../../../src/sandbox/google/index.js";
import {
  ANALYST,
  accessToken,
  call,
  loopbackOnly,
  VIEWER,
  withSandbox,
} from "../../../helpers/google-sandbox.js";

loopbackOnly();

let clock = Date.parse("2025-03-01T12:00:00.000Z");
const SHOP = "/v1beta/properties/412345671";

function data(s: GoogleSandbox, token: string, method: string, path: string, body?: unknown) {
  return call(`${s.dataApiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

describe("Data API: audience exports", () => {
  const sandbox = withSandbox({ now: () => clock, data: { audienceExportMs: 10_000 } });

  it("creates (a long-running Operation), stays CREATING until the delay passes, then queries in pages", async () => {
    const s = sandbox();
    const token = await accessToken(s, ANALYST);
    const operation = await data(s, token, "POST", `${SHOP}/audienceExports`, {
      audience: "properties/412345671/audiences/1002",
      dimensions: [{ dimensionName: "userId" }, { dimensionName: "deviceId" }],
    });
    expect(operation.status).toBe(200);
    expect(operation.body).toEqual({
      name: expect.stringMatching(/^properties\/412345671\/operations\/audienceExport-\d+$/),
      metadata: { "@type": "type.googleapis.com/google.analytics.data.v1beta.AudienceExportMetadata" },
      done: false,
    });
    const name = String(operation.body.name).replace("operations/audienceExport-", "audienceExports/");
    clock += 4_000;
    const creating = await data(s, token, "GET", `/v1beta/${name}`);
    expect(creating.body).toEqual({
      name,
      audience: "properties/412345671/audiences/1002",
      audienceDisplayName: "Purchasers",
      dimensions: [{ dimensionName: "userId" }, { dimensionName: "deviceId" }],
      state: "CREATING",
      beginCreatingTime: "2025-03-01T12:00:00.000Z",
      creationQuotaTokensCharged: 0,
      percentageCompleted: 40,
    });
    const early = await data(s, token, "POST", `/v1beta/${name}:query`, {});
    expect(early.status).toBe(400);
    expect((early.body.error as { status: string }).status).toBe("FAILED_PRECONDITION");

    clock += 6_000;
    const active = await data(s, token, "GET", `/v1beta/${name}`);
    expect(active.body).toMatchObject({ state: "ACTIVE", percentageCompleted: 100, rowCount: 157 });
    const first = await data(s, token, "POST", `/v1beta/${name}:query`, { limit: "100" });
    const rows = first.body.audienceRows as { dimensionValues: { value: string }[] }[];
    expect(rows).toHaveLength(100);
    expect(first.body.rowCount).toBe(157);
    expect(rows[0]?.dimensionValues).toEqual([
      { value: expect.stringMatching(/^U\d{5}$|^\(not set\)$/) },
      { value: expect.stringMatching(/^\d+\.\d+$/) },
    ]);
    const rest = await data(s, token, "POST", `/v1beta/${name}:query`, { offset: 100, limit: 100 });
    expect((rest.body.audienceRows as unknown[]).length).toBe(57);
    // The same export read again gives the same users: the rows are a snapshot.
    const again = await data(s, token, "POST", `/v1beta/${name}:query`, { offset: "0", limit: "1" });
    expect((again.body.audienceRows as unknown[])[0]).toEqual(rows[0]);
    const past = await data(s, token, "POST", `/v1beta/${name}:query`, { offset: 500 });
    expect(past.body).not.toHaveProperty("audienceRows");
    expect((await data(s, token, "POST", `/v1beta/${name}:query`, { limit: 0 })).status).toBe(400);
  });

  it("lists the property's exports in pages and refuses bad requests", async () => {
    const s = sandbox();
    const token = await accessToken(s, ANALYST);
    for (const audience of ["1001", "1002", "1003"]) {
      await data(s, token, "POST", `${SHOP}/audienceExports`, {
        audience: `properties/412345671/audiences/${audience}`,
        dimensions: [{ dimensionName: "deviceId" }],
      });
    }
    const page = await data(s, token, "GET", `${SHOP}/audienceExports?pageSize=2`);
    expect(
      (page.body.audienceExports as { audienceDisplayName: string }[]).map((e) => e.audienceDisplayName),
    ).toEqual(["All Users", "Purchasers"]);
    const next = await data(
      s,
      token,
      "GET",
      `${SHOP}/audienceExports?pageSize=2&pageToken=${String(page.body.nextPageToken)}`,
    );
    expect((next.body.audienceExports as unknown[]).length).toBe(1);
    expect(next.body).not.toHaveProperty("nextPageToken");
    expect((await data(s, token, "GET", "/v1beta/properties/412345674/audienceExports")).body).toEqual({});

    const create = (body: unknown) => data(s, token, "POST", `${SHOP}/audienceExports`, body);
    expect((await create({ dimensions: [{ dimensionName: "deviceId" }] })).status).toBe(400);
    expect(
      (
        await create({
          audience: "properties/412345674/audiences/1001",
          dimensions: [{ dimensionName: "deviceId" }],
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await create({
          audience: "properties/412345671/audiences/9",
          dimensions: [{ dimensionName: "deviceId" }],
        })
      ).status,
    ).toBe(404);
    const badDimension = await create({
      audience: "properties/412345671/audiences/1001",
      dimensions: [{ dimensionName: "city" }],
    });
    expect((badDimension.body.error as { message: string }).message).toMatch(
      /not a valid dimension for audience exports/,
    );
    expect((await data(s, token, "GET", `${SHOP}/audienceExports/42`)).status).toBe(404);
    const viewer = await accessToken(s, VIEWER);
    expect((await data(s, viewer, "GET", "/v1beta/properties/423456787/audienceExports")).status).toBe(403);
    const missing = await data(s, token, "GET", `${SHOP}/nothing`);
    expect((missing.body.error as { message: string }).message).toMatch(/^Method not found/);
  });
});
