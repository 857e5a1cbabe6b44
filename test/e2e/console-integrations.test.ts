/**
 * The console as an admin and a marketer use it, in headless Chromium (one server, one browser): a
 * refused input names every field by its title at once, each Google account is a card with its state
 * (connected as, the host it talks to, how it was connected, its last Test, its calls today and the GA4
 * tokens its last report returned), the same Google account
 * connected twice replaces the old one and says so, and every control of the login, integrations and
 * result screens is reached with the Tab key, with a visible focus ring. Marketo here allows one call
 * per 2 s, so a paged read is still running when Cancel is pressed. Screenshots go to
 * test-output/screenshots.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations } from "../helpers/axe.js";
import { type Browser, launchBrowser } from "../helpers/browser.js";
import { type ConsoleFixture, startConsoleFixture } from "../helpers/console.js";
import { tabThrough } from "../helpers/keyboard.js";

describe("the console's connections, errors and keyboard", () => {
  let fixture: ConsoleFixture;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    fixture = await startConsoleFixture({
      marketoEnv: { MARKETO_CALLS_PER_WINDOW: "1", MARKETO_WINDOW_MS: "2000" },
    });
    browser = await launchBrowser();
    page = browser.page;
    page.setDefaultTimeout(10_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
  });

  const google = () => page.getByRole("region", { name: "Google Analytics 4" });
  const accountCards = () =>
    google().getByRole("list", { name: "Connected Google accounts" }).locator(":scope > li");
  const openIntegrations = async () => {
    await page.goto(`${fixture.base}/#/integrations`);
    await page.getByRole("heading", { name: "Integrations", level: 1 }).waitFor();
    await page.waitForLoadState("networkidle");
  };

  it("reaches every control of the login screen with the Tab key, focus visible", async () => {
    await page.goto(fixture.base);
    await page.getByRole("heading", { name: "Login required" }).waitFor();
    const { controls, missed, unseen } = await tabThrough(page);
    expect(controls.length).toBeGreaterThan(0);
    expect({ missed, unseen }).toEqual({ missed: [], unseen: [] });
  });

  it("names every missing field by its title at once, each under its field, and clears each when filled", async () => {
    await page.goto(fixture.console.loginUrl(fixture.base));
    await page.locator(".workspace").waitFor();
    await page.getByLabel("Search tool steps").fill("analytics");
    await page.getByRole("button", { name: /^Create properties/ }).click();
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const message = page.locator(".problem-message");
    await expect
      .poll(() => message.textContent())
      .toMatch(
        /^2 fields to fix\. Property name: required \(a string\); Time zone: required \(a string\)\.$/,
      );
    const under = (id: string) =>
      page
        // The innermost group of the field (the form's root is a group too).
        .locator(".form-group:not(:has(.form-group))", { has: page.locator(`#${id}`) })
        .locator(".error-detail");
    expect(await under("root_display_name").textContent()).toBe("required (a string)");
    expect(await under("root_time_zone").textContent()).toBe("required (a string)");
    await browser.screenshot("integrations-01-missing-fields-by-title");
    await page.getByLabel("Property name").fill("Web store");
    await expect.poll(() => under("root_display_name").count()).toBe(0);
    await expect.poll(() => message.textContent()).toBe("Time zone: required (a string).");
  });

  it("shows each Google account as a card: connected as, host, how it was connected; Test refreshes and lists", async () => {
    await openIntegrations();
    await expect.poll(() => accountCards().count()).toBe(2);
    const sandbox = page.getByRole("article", { name: "Google account sandbox" });
    expect(await sandbox.getByTestId("connected-as").textContent()).toMatch(/@sandbox\.example$/);
    const host = new URL(fixture.google.adminApiUrl).host;
    expect(await sandbox.getByTestId("google-hosts").textContent()).toContain(host);
    expect(await sandbox.textContent()).toContain("Connected byGoogle sign-in (OAuth refresh token)");
    // What its reports will see, by name, and its state before any Test (trial s5, finding 8): the
    // properties listed as it (the report form's list) say it works, and its last test's line says why
    // the chip is Connected before any Test (trial s7, finding 12).
    const properties = sandbox.getByRole("list", { name: "Analytics accounts and properties" });
    await expect.poll(() => properties.locator(":scope > li").count()).toBeGreaterThan(0);
    expect(await sandbox.getByTestId("google-last-test").textContent()).toMatch(
      /^Working: its Analytics properties were read on .+ UTC\.$/,
    );
    expect(await properties.textContent()).toContain("Retail Web Store");
    expect(await sandbox.getByTestId("google-properties").textContent()).not.toMatch(/properties\/\d/);
    expect(await sandbox.getByTestId("status-chip").textContent()).toBe("Connected");
    // The Marketo card names its instance by host, and says it is set up, not tested (one rule: s7, 12).
    const marketo = page.getByRole("region", { name: "Adobe Marketo Engage" });
    const marketoHost = new URL(fixture.marketo.restEndpoint).host;
    expect(await marketo.getByTestId("marketo-instance").textContent()).toBe(`Instance: ${marketoHost}`);
    expect(await marketo.getByTestId("status-chip").textContent()).toBe("Set up, not tested yet");
    const refreshes = fixture.google.stats().refreshRequests;
    await sandbox.getByRole("button", { name: "Test" }).click();
    const last = sandbox.getByTestId("google-last-test");
    await expect
      .poll(() => last.textContent())
      .toMatch(
        new RegExp(
          `^\\d{1,2} [A-Z][a-z]{2} \\d{4}, \\d{2}:\\d{2} UTC: OK\\. Google refreshed its token and listed \\d+ Analytics accounts? that "sandbox" can see \\(${host.replace(/\./g, "\\.")}`,
        ),
      );
    expect(await last.getAttribute("data-ok")).toBe("true");
    expect(fixture.google.stats().refreshRequests).toBeGreaterThan(refreshes);
    // The outcome is the server's: the page opened again shows it.
    await openIntegrations();
    await expect
      .poll(() =>
        page
          .getByRole("article", { name: "Google account sandbox" })
          .getByTestId("google-last-test")
          .textContent(),
      )
      .toMatch(/: OK\. Google refreshed its token/);
    expect(await axeViolations(page)).toEqual([]);
    await browser.screenshot("integrations-02-google-cards");
  });

  it("shows what an account has used: a report run as it raises its calls today and shows the property's tokens", async () => {
    await openIntegrations();
    const card = (label = "sandbox") => page.getByRole("article", { name: `Google account ${label}` });
    const calls = async (label = "sandbox") =>
      Number.parseInt((await card(label).getByTestId("google-calls-today").textContent()) ?? "", 10);
    // Both accounts' cards: the form's pickers first read with its default account ("reader") before
    // the person picks "sandbox", and those requests are the reader's.
    // The accounts' calls as the server counts them, read when the page is idle: a card shows the count of
    // the moment it loaded, before the page's own property reads, which the sandbox may or may not have
    // counted yet when its figure is read (a CI run saw the cards 2 ahead: one read per account).
    const bothCalls = async () => {
      await page.waitForLoadState("networkidle");
      return page.evaluate(async () => {
        const status = (await (await fetch("/console/api/google")).json()) as {
          accounts: { callsToday: { calls: number } }[];
        };
        return status.accounts.reduce((sum, account) => sum + account.callsToday.calls, 0);
      });
    };
    const callsBefore = await calls();
    const bothBefore = await bothCalls();
    expect(await card().getByTestId("google-quota-seen").textContent()).toBe(
      "No report has been run as this account since this server started.",
    );
    const sent = () => fixture.google.stats().data.requests + fixture.google.stats().adminRequests;
    const sentBefore = sent();
    await page.getByRole("link", { name: "Tool steps" }).click();
    await page.getByLabel("Search tool steps").fill("analytics");
    await page.getByRole("button", { name: /^Run Reports/ }).click();
    await page.getByRole("button", { name: "Active users per day, last 28 days" }).click();
    await page.getByLabel("Google account").selectOption("sandbox");
    await expect.poll(() => page.getByLabel("Property").inputValue()).toMatch(/^\d+$/);
    // The option reads "Retail Web Store (412345671)": the card names the property without its id.
    const chosen = await page.getByLabel("Property").locator("option:checked").textContent();
    const propertyName = (chosen ?? "").replace(/ \(\d+\)$/, "");
    expect(propertyName).toMatch(/^[^\d(]+$/);
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.locator(".results .summary").waitFor();
    // What Google reported with the report: that request's cost and what was left after it.
    const raw = JSON.parse((await page.locator(".results details.raw pre").textContent()) ?? "{}") as {
      quota: Record<"tokens_per_day" | "tokens_per_hour", { consumed?: number; remaining?: number }>;
    };
    const { tokens_per_day: day, tokens_per_hour: hour } = raw.quota;
    await openIntegrations();
    // Every request the sandbox received (pickers and report) went through one of the accounts and was
    // counted on its card; the report's own (its pickers, compatibility check and runReport) on sandbox's.
    await expect.poll(async () => (await bothCalls()) - (sent() - sentBefore)).toBe(bothBefore);
    expect(await calls()).toBeGreaterThanOrEqual(callsBefore + 3);
    expect(sent()).toBeGreaterThan(sentBefore);
    // Each figure is Google's, said for what it is ("1 used, 199,990 left" read as parts of one whole).
    const n = (value: number | undefined) => (value ?? 0).toLocaleString("en-US");
    const cost = day.consumed ?? 0;
    // The property's name comes with the card's account summaries, read after it opens: until they are
    // there the line names the property by its id (CI, stop 34, read it that early).
    await expect
      .poll(() => card().getByTestId("google-quota-seen").textContent())
      .toMatch(
        new RegExp(
          `^${propertyName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}, core reports, last report .+: the report cost ${cost} tokens?; Google then had ` +
            `${n(day.remaining)} tokens per day and ${n(hour.remaining)} per hour left\\.$`,
        ),
      );
    expect(cost).toBe(hour.consumed ?? 0);
    expect(await axeViolations(page)).toEqual([]);
    await browser.screenshot("integrations-02b-google-account-use");
  });

  it("counts a Test in its card's calls today at once, and the Marketo card a run, without a reload", async () => {
    await openIntegrations();
    const card = () => page.getByRole("article", { name: "Google account sandbox" });
    const calls = async () =>
      Number.parseInt((await card().getByTestId("google-calls-today").textContent()) ?? "", 10);
    const before = await calls();
    await card().getByRole("button", { name: "Test" }).click();
    // The Test refreshed a token and listed the account's summaries: the count moves on this screen.
    await expect.poll(calls).toBeGreaterThan(before);
    // A run elsewhere (another tab, an MCP client): the page shown again reads the counts again.
    const marketoCalls = () =>
      page.getByLabel("Adobe Marketo Engage").locator(".usage dd").first().textContent();
    const shownBefore = await marketoCalls();
    await fixture
      .workspace()
      .connection("marketo")
      .then((marketo) =>
        marketo.request({
          method: "GET",
          path: "/rest/v1/leads.json",
          query: { filterType: "id", filterValues: "7" },
        }),
      );
    await page.evaluate(`document.dispatchEvent(new Event("visibilitychange"))`);
    await expect.poll(marketoCalls).not.toBe(shownBefore);
  });

  it("connects the same Google account twice: one card, the label typed applied, and the page says so", async () => {
    await google().getByRole("button", { name: "Connect a Google account" }).click();
    await page.waitForURL(`${fixture.base}/#/integrations?connected=editor`);
    await expect.poll(() => accountCards().count()).toBe(3);
    const tokenBefore = (await fixture.store.read("default")).googleAccounts.editor?.refreshToken;
    // Again, asking for another label: the same account keeps its one entry, now under that label.
    await page.getByLabel("Label (optional)").fill("work");
    await google().getByRole("button", { name: "Connect a Google account" }).click();
    await page.waitForURL(/#\/integrations\?connected=work&replaced=/);
    await expect
      .poll(() => page.locator(".integrations > .notice").textContent())
      .toBe(
        'editor@sandbox.example was already connected as "editor"; it is now labelled "work" and its token was replaced (one entry per Google account).',
      );
    await expect.poll(() => accountCards().count()).toBe(3);
    expect(await accountCards().filter({ hasText: "editor@sandbox.example" }).count()).toBe(1);
    expect(await page.getByRole("article", { name: "Google account work" }).count()).toBe(1);
    expect(await page.getByRole("article", { name: "Google account editor" }).count()).toBe(0);
    const stored = (await fixture.store.read("default")).googleAccounts;
    expect(stored.editor).toBeUndefined();
    if (tokenBefore !== undefined) expect(stored.work?.refreshToken).not.toBe(tokenBefore);
    await browser.screenshot("integrations-03-same-account-relabelled");
  });

  it("takes a card back from Needs attention to Connected when a Test works after its listing failed", async () => {
    // Google failing for the listing alone, once: the card's properties could not be read.
    const listing = (url: URL) =>
      url.pathname === "/console/api/google/summaries" && url.searchParams.get("account") === "sandbox";
    await page.route(listing, (route) =>
      route.fulfill({
        status: 502,
        contentType: "application/json",
        body: JSON.stringify({ error: { error: "upstream_error", message: "Google answered 503." } }),
      }),
    );
    await page.goto(fixture.console.loginUrl(fixture.base));
    await page.locator(".workspace").waitFor();
    await openIntegrations();
    const sandbox = page.getByRole("article", { name: "Google account sandbox" });
    await expect
      .poll(() => sandbox.getByTestId("google-properties").textContent())
      .toMatch(/could not be listed/);
    expect(await sandbox.getByTestId("status-chip").textContent()).toBe("Needs attention");
    await page.unroute(listing);
    // A later read through the same account works: the latest says the state (an earlier test of this
    // file may have passed already, so the wait is for this Test's own answer).
    const tested = page.waitForResponse((response) => response.url().endsWith("/accounts/sandbox/test"));
    await sandbox.getByRole("button", { name: "Test" }).click();
    expect((await tested).status()).toBe(200);
    await expect.poll(() => sandbox.getByTestId("status-chip").textContent()).toBe("Connected");
  });

  it("reaches every control of the integrations screen with the Tab key, focus visible", async () => {
    await openIntegrations();
    const { controls, missed, unseen } = await tabThrough(page);
    // The Marketo card's fields and buttons, each Google card's Test and Remove, and Connect.
    expect(controls).toEqual(
      expect.arrayContaining(["Connect a Google account", "Test", "Remove", "Test connection"]),
    );
    expect({ missed, unseen }).toEqual({ missed: [], unseen: [] });
  });

  it("reaches Load more and the downloads of a result, and Cancel of a run, with the Tab key", async () => {
    await page.getByRole("link", { name: "Tool steps" }).click();
    await page.getByLabel("Search tool steps").fill("marketing automation");
    await page.getByRole("button", { name: /Marketo API Call/ }).click();
    await page.getByLabel("Endpoint").fill("/rest/v1/lists/1001/leads.json");
    const rows = page.locator("fieldset.key-value .kv-row");
    await rows.nth(0).getByLabel("Name", { exact: true }).fill("batchSize");
    await rows.nth(0).getByLabel("Value", { exact: true }).fill("5");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.locator(".results").getByRole("button", { name: "Load more" }).waitFor();
    const result = await tabThrough(page, ".results");
    expect(result.controls).toEqual(expect.arrayContaining(["Load more", "Download CSV", "Download JSON"]));
    expect({ missed: result.missed, unseen: result.unseen }).toEqual({ missed: [], unseen: [] });
    await browser.screenshot("integrations-04-result-keyboard");
    // A paged read waits for Marketo's window between pages: Cancel is there, and the keyboard stops it.
    await page.locator("#root_paginate").check();
    await rows.nth(0).getByLabel("Value", { exact: true }).fill("50");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const cancel = page.getByRole("button", { name: "Cancel" });
    await cancel.waitFor();
    const running = await tabThrough(page, ".runner");
    expect(running.controls).toContain("Cancel");
    expect({ missed: running.missed, unseen: running.unseen }).toEqual({ missed: [], unseen: [] });
    await cancel.focus();
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.locator(".results .summary").textContent())
      .toMatch(/stopped after \d+ records?/i);
  });
});
