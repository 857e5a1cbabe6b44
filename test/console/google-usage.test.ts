/**
 * The Google account card's use, through the console's API: a report run as one account raises that
 * account's calls today by exactly the requests the sandbox received, and the card gains the property's
 * GA4 tokens as the report returned them; the other account's figures do not move, and no secret is in
 * the answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsoleFixture, ConsolePage, startConsoleFixture } from "../helpers/console.js";

interface Use {
  label: string;
  callsToday: { calls: number; since: string };
  quotasSeen: {
    propertyId: string;
    kind: string;
    seenAt: string;
    quotas: { tokensPerDay?: { consumed?: number; remaining?: number } };
  }[];
}

describe("what each Google account has used", () => {
  let fixture: ConsoleFixture;
  let page: ConsolePage;

  beforeAll(async () => {
    fixture = await startConsoleFixture();
    page = new ConsolePage(fixture, []);
    await page.login();
  }, 60_000);

  afterAll(async () => {
    await fixture?.close();
  });

  const accounts = async () => {
    const answer = await page.call("GET", "/console/api/google");
    expect(answer.status).toBe(200);
    for (const secret of await fixture.canaries()) expect(answer.text).not.toContain(secret);
    return (JSON.parse(answer.text) as { accounts: Use[] }).accounts;
  };
  const use = async (label: string) => (await accounts()).find((account) => account.label === label) as Use;

  it("counts the calls of a report run as the account, and shows the property's tokens it returned", async () => {
    const before = await use("reader");
    const other = await use("editor");
    const today = new Date();
    today.setUTCHours(0, 0, 0, 0);
    expect(before.callsToday.since).toBe(today.toISOString());
    expect(before.quotasSeen).toEqual([]);
    const sent = () => fixture.google.stats().data.requests + fixture.google.stats().adminRequests;
    const sentBefore = sent();
    const events = await page.run("google_analytics_run_reports", {
      account: "reader",
      property: "412345671",
      metrics: ["sessions"],
      dimensions: ["date"],
      date_ranges: ["last7days"],
    });
    expect(events.at(-1)?.type).toBe("result");
    const after = await use("reader");
    expect(sent()).toBeGreaterThan(sentBefore);
    expect(after.callsToday.calls - before.callsToday.calls).toBe(sent() - sentBefore);
    expect(after.quotasSeen).toHaveLength(1);
    const [seen] = after.quotasSeen;
    expect(seen).toMatchObject({ propertyId: "412345671", kind: "core" });
    expect(seen?.quotas.tokensPerDay?.remaining).toBeGreaterThan(0);
    expect(Date.parse(seen?.seenAt ?? "")).toBeGreaterThanOrEqual(today.getTime());
    expect(await use("editor")).toEqual(other);
  });
});
