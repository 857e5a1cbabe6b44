import { describe, expect, it } from "vitest";
import { PermissionError, ValidationError } from "../../../src/errors.js";
import { runToolStep } from "../../../src/tools/run.js";
import { contextFor, FakeGa } from "../../helpers/ga-fake-connector.js";

const ID = "google_analytics_create_properties";
const BASE = { analytics_account: "accounts/77", display_name: "Shop", time_zone: "Europe/Paris" };

describe("Create properties", () => {
  it("creates the property under the account and says a data stream comes next", async () => {
    const ga = new FakeGa();
    ga.onRequest = (_api, req) => ({
      name: "properties/555",
      ...(req.body as object),
      createTime: "2026-11-20T10:00:00Z",
    });
    const result = await runToolStep(
      ID,
      { ...BASE, currency_code: "eur", industry_category: "SHOPPING" },
      contextFor(ga),
    );
    expect(ga.callsOf("request")[0]?.args).toEqual([
      "admin",
      expect.objectContaining({
        method: "POST",
        path: "v1beta/properties",
        body: {
          parent: "accounts/77",
          displayName: "Shop",
          timeZone: "Europe/Paris",
          currencyCode: "EUR",
          industryCategory: "SHOPPING",
        },
      }),
    ]);
    expect(result.data).toMatchObject({
      property: { name: "properties/555", property_id: "555", parent: "accounts/77", currency_code: "EUR" },
    });
    expect((result.data as { next_steps: string[] }).next_steps[0]).toMatch(
      /v1beta\/properties\/555\/dataStreams/,
    );
  });

  it.each([
    [{ time_zone: "Paris" }, /time_zone.*IANA/],
    [{ time_zone: "Europe/Pariss" }, /time_zone/],
    [{ time_zone: "EST" }, /time_zone/],
    [{ time_zone: "+05:00" }, /time_zone/],
    [{ currency_code: "EURO" }, /currency_code.*ISO 4217/],
    [{ currency_code: "XYZ" }, /currency_code/],
    [{ display_name: "x".repeat(101) }, /display_name/],
    [{ industry_category: "SPACE" }, /industry_category/],
    [{ analytics_account: "acct/1" }, /analytics_account/],
  ])("refuses %j before sending", async (patch, pattern) => {
    const ga = new FakeGa();
    const error = await runToolStep(ID, { ...BASE, ...patch }, contextFor(ga)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toMatch(pattern);
    expect(ga.calls).toHaveLength(0);
  });

  it.each([
    "UTC",
    "Etc/UTC",
    "America/Argentina/Buenos_Aires",
    "Asia/Kolkata",
    "Europe/Kyiv",
    "Asia/Calcutta",
  ])("accepts the time zone %s", async (zone) => {
    const ga = new FakeGa();
    ga.onRequest = () => ({ name: "properties/1" });
    await expect(runToolStep(ID, { ...BASE, time_zone: zone }, contextFor(ga))).resolves.toBeDefined();
  });

  it("defaults to the only visible Analytics account and lists them when there are several", async () => {
    const one = new FakeGa();
    one.lists["v1beta/accountSummaries"] = [{ account: "accounts/9", displayName: "Main" }];
    one.onRequest = () => ({ name: "properties/1" });
    const { analytics_account: _, ...withoutAccount } = BASE;
    await runToolStep(ID, withoutAccount, contextFor(one));
    expect(one.callsOf("request")[0]?.args[1]).toMatchObject({ body: { parent: "accounts/9" } });

    const two = new FakeGa();
    two.lists["v1beta/accountSummaries"] = [
      { account: "accounts/9", displayName: "Main" },
      { account: "accounts/10", displayName: "Agency" },
    ];
    const error = await runToolStep(ID, withoutAccount, contextFor(two)).catch((e: unknown) => e);
    expect((error as ValidationError).field).toBe("analytics_account");
    expect((error as Error).message).toMatch(/accounts\/9 \(Main\), accounts\/10 \(Agency\)/);
    expect(two.callsOf("request")).toHaveLength(0);
  });

  it("turns a plain 403 into a message that Administrator on the account is needed", async () => {
    const ga = new FakeGa();
    ga.onRequest = () => {
      throw new PermissionError("Google Analytics denied account 'main' this call.");
    };
    const error = await runToolStep(ID, BASE, contextFor(ga)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionError);
    expect((error as Error).message).toMatch(/needs the Administrator role on that Analytics account/);
    expect((error as Error).message).toMatch(/accounts\/77/);

    const disabled = new FakeGa();
    const original = new PermissionError("The Google Analytics Admin API is not enabled.", {
      details: { reason: "SERVICE_DISABLED" },
    });
    disabled.onRequest = () => {
      throw original;
    };
    await expect(runToolStep(ID, BASE, contextFor(disabled))).rejects.toBe(original);
  });
});
