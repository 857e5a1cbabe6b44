/**
 * The Google card's Test, through the console's API: a saved account's token refreshed and one
 * accountSummaries call made, the outcome kept for the card; a revoked token fails the test and the card
 * says so; an unknown label is refused without being counted as a test.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsoleFixture, ConsolePage, startConsoleFixture } from "../helpers/console.js";

interface Status {
  hosts: string[];
  accounts: { label: string; connectedBy: string; lastTest: { ok: boolean; message: string } | null }[];
}

describe("Test of a connected Google account", () => {
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

  const account = async (label: string) =>
    (await page.json<Status>("GET", "/console/api/google")).accounts.find((a) => a.label === label);

  it("refreshes the token, reads accountSummaries, and remembers the outcome", async () => {
    const before = fixture.google.stats();
    const tested = await page.json<{ message: string }>("POST", "/console/api/google/accounts/reader/test");
    const after = fixture.google.stats();
    expect(after.refreshRequests).toBeGreaterThan(before.refreshRequests);
    expect(after.adminRequests).toBe(before.adminRequests + 1);
    const host = new URL(fixture.google.adminApiUrl).host;
    expect(tested.message).toMatch(
      new RegExp(
        `^Google refreshed its token and listed \\d+ Analytics accounts? that "reader" can see \\(${host}`,
      ),
    );
    expect((await account("reader"))?.lastTest).toMatchObject({ ok: true, message: tested.message });
    const status = await page.json<Status>("GET", "/console/api/google");
    expect(status.hosts).toContain(host);
    expect((await account("reader"))?.connectedBy).toBe("Google sign-in (OAuth refresh token)");
  });

  it("fails, and says so on the card, when Google no longer accepts the account's token", async () => {
    const token = (await fixture.store.read("default")).googleAccounts.reader?.refreshToken as string;
    const revoked = await fetch(`${fixture.google.oauthUrl}/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token }),
    });
    expect(revoked.status).toBe(200);
    const answer = await page.call("POST", "/console/api/google/accounts/reader/test");
    expect(answer.status).toBe(422);
    expect(JSON.parse(answer.text).error.error).toBe("authentication_failed");
    expect((await account("reader"))?.lastTest).toMatchObject({ ok: false });
  });

  it("refuses an unknown label without recording a test", async () => {
    const answer = await page.call("POST", "/console/api/google/accounts/nobody/test");
    expect(answer.status).toBe(400);
    expect(
      (await page.json<Status>("GET", "/console/api/google")).accounts.map((a) => a.label),
    ).not.toContain("nobody");
  });
});
