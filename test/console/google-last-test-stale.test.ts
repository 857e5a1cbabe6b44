/**
 * A card's last Test belongs to the credential that was tested: after the account under a label is removed
 * and another credential is stored under the same label (another Google account, or the same one reconnected
 * after its token died), the card must not show the old credential's outcome as this one's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsoleFixture, ConsolePage, startConsoleFixture } from "../helpers/console.js";

interface Status {
  accounts: { label: string; email?: string; lastTest: { ok: boolean; message: string } | null }[];
}

describe("a Google card's last Test after its label is reused", () => {
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

  it("is not carried over to another credential stored under the same label", async () => {
    await page.json("POST", "/console/api/google/accounts/reader/test");
    expect((await account("reader"))?.lastTest).toMatchObject({ ok: true });
    const old = (await fixture.store.read("default")).googleAccounts.reader;
    expect(old).toBeDefined();
    const removed = await page.call("DELETE", "/console/api/google/accounts/reader");
    expect(removed.status).toBe(200);
    // Another account stored under the freed label (as an import or a sign-in with --label reader does).
    await fixture.store.update("default", (current) => ({
      ...current,
      googleAccounts: {
        ...current.googleAccounts,
        reader: {
          ...(old as NonNullable<typeof old>),
          email: "someone-else@example.com",
          refreshToken: "never-tested",
          addedAt: new Date(Date.now() + 1000).toISOString(),
        },
      },
    }));
    const now = await account("reader");
    expect(now?.email).toBe("someone-else@example.com");
    expect(now?.lastTest).toBeNull();
  });
});
