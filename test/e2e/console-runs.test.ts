/**
 * Long runs in the console, in headless Chromium: progress and Cancel, a run stopped when the person
 * leaves its step, and a POST another origin's page sends with the console's cookie refused.
 * The page runs under its real CSP, and every response it receives is searched for the configuration's
 * secrets (test/helpers/console-session.ts).
 */

import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "../helpers/browser.js";
import { type ConsoleFixture, startConsoleFixture } from "../helpers/console.js";
import {
  type ConsoleSession,
  closeConsoleSession,
  expectNoCspViolation,
  expectNoSecretSent,
  openConsoleSession,
} from "../helpers/console-session.js";

describe("the console's runs in a browser", () => {
  let session: ConsoleSession;
  let fixture: ConsoleFixture;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    session = await openConsoleSession({ login: true });
    ({ fixture, browser, page } = session);
  }, 60_000);

  afterAll(() => closeConsoleSession(session));

  /**
   * A second console whose Marketo connection allows one call per 2 s, in a tab of its own, running a paged
   * read of a list 50 records a page (page 2 must wait for the window); `body` watches it, then both close.
   */
  async function withSlowListRun(body: (tab: Page, slow: ConsoleFixture) => Promise<void>): Promise<void> {
    const slow = await startConsoleFixture({
      marketoEnv: { MARKETO_CALLS_PER_WINDOW: "1", MARKETO_WINDOW_MS: "2000" },
    });
    const tab = await browser.context.newPage();
    tab.setDefaultTimeout(10_000);
    try {
      await tab.goto(slow.console.loginUrl(slow.base));
      await tab.getByLabel("Search tool steps").fill("marketing automation");
      await tab.getByRole("button", { name: /Marketo API Call/ }).click();
      await tab.locator("#root_method").selectOption("GET");
      await tab.locator("#root_endpoint").fill("/rest/v1/lists/1001/leads.json");
      await addQueryParameter("batchSize", "50", tab);
      await tab.locator("#root_paginate").check();
      await tab.getByRole("button", { name: "Run", exact: true }).click();
      await body(tab, slow);
    } finally {
      await tab.close();
      await slow.close();
    }
  }

  it("shows a long run's progress and cancels it", async () => {
    await withSlowListRun(async (tab, slow) => {
      const progress = tab.locator(".progress");
      // Pages and records read, then the wait: not a bare "waiting" that reads as if nothing happened.
      await expect
        .poll(() => progress.textContent())
        .toMatch(/^50 found so far\. Waiting \d s for Marketo's rate window limit$/);
      expect(await progress.locator("progress").getAttribute("max")).toBe("5000");
      await browser.screenshot("09-long-run-progress", tab);
      await tab.getByRole("button", { name: "Cancel" }).click();
      // Cancel keeps what was read and says so; it is no error. On a loaded machine the next window may open
      // (and a page be read) between the progress seen and the click: the count is whatever was read, in
      // whole pages, and the table holds exactly those records.
      const stopped = tab.locator(".results .summary[data-outcome='stopped']");
      await expect.poll(() => stopped.textContent()).toMatch(/^Stopped after \d+ records\.$/);
      const read = Number(/\d+/.exec((await stopped.textContent()) ?? "")?.[0]);
      expect(read % 50).toBe(0);
      expect(read).toBeGreaterThanOrEqual(50);
      expect(read).toBeLessThan(5000);
      await expect
        .poll(() => tab.getByRole("table", { name: "Records" }).locator("tbody tr").count())
        .toBe(read);
      expect(await tab.locator(".problem").count()).toBe(0);
      expect(await tab.locator(".results").getByRole("link", { name: "Download CSV" }).count()).toBe(1);
      await browser.screenshot("09-long-run-stopped", tab);
      // Stopped means stopped: no call in the window and more after (one call per 2 s window here).
      const calls = slow.marketo.stats().apiCalls;
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(slow.marketo.stats().apiCalls).toBe(calls);
    });
  });

  it("stops a run when the person leaves its step for another screen", async () => {
    await withSlowListRun(async (tab, slow) => {
      await expect.poll(() => tab.locator(".progress").textContent()).toMatch(/^50 found so far\./);
      await tab.getByRole("link", { name: "Integrations" }).click();
      await tab.getByRole("heading", { level: 1 }).waitFor();
      // The run nobody sees any more is dropped: no more calls on the workspace's Marketo quota.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const calls = slow.marketo.stats().apiCalls;
      await new Promise((resolve) => setTimeout(resolve, 4_500));
      expect(slow.marketo.stats().apiCalls).toBe(calls);
    });
  });

  it("lays a pivot by year out as the answer does: the row field first, the years in order, then total", async () => {
    // Rows are objects, which list keys that read as integers first: "2024 2025 2026 leadSource total" (review s29, 9).
    await page.getByLabel("Search tool steps").fill("marketing automation");
    await page.getByRole("button", { name: /Marketo API Call/ }).click();
    await page.locator("#root_method").selectOption("GET");
    await page.locator("#root_endpoint").fill("/rest/v1/lists/1001/leads.json");
    await addQueryParameter("fields", "id,leadSource,createdAt");
    await page.locator("#root_paginate").check();
    const countBy = page.locator("#root_count_by");
    if (!(await countBy.isVisible())) await page.getByText("More options", { exact: true }).click();
    await countBy.fill("leadSource,createdAt:year:columns");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const headers = page.locator(".results table thead th");
    await expect.poll(() => headers.count(), { timeout: 20_000 }).toBeGreaterThan(2);
    const names = (await headers.allTextContents()).map((text) => text.trim());
    expect(names[0]).toMatch(/lead ?source/i);
    expect(names.at(-1)).toMatch(/total/i);
    const years = names.slice(1, -1);
    expect(years.length).toBeGreaterThan(1);
    for (const year of years) expect(year).toMatch(/^\d{4}/);
    expect(years).toEqual([...years].sort());
  }, 60_000);

  it("offers the records counted as files beside the count rows when Keep the records counted is ticked (review s53, 4)", async () => {
    await page.getByLabel("Search tool steps").fill("marketing automation");
    await page.getByRole("button", { name: /Marketo API Call/ }).click();
    await page.locator("#root_method").selectOption("GET");
    await page.locator("#root_endpoint").fill("/rest/v1/lists/1001/leads.json");
    await page.locator("#root_paginate").check();
    const countBy = page.locator("#root_count_by");
    if (!(await countBy.isVisible())) await page.getByText("More options", { exact: true }).click();
    await countBy.fill("createdAt:year");
    await page.locator("#root_keep_counted").check();
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const counted = page.locator(".results .downloads", { hasText: "Records counted" });
    await expect.poll(() => counted.textContent(), { timeout: 20_000 }).toMatch(/\(all 1,250 records\)/);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      counted.getByRole("link", { name: "Download JSON" }).click(),
    ]);
    const records = JSON.parse(readFileSync((await download.path()) as string, "utf8")) as unknown[];
    expect(records).toHaveLength(1_250);
    // The count rows are called so beside them, and the counted CSV's name says what it holds once (review s54, C1).
    const rows = page.locator(".results .downloads", { hasNotText: "Records counted" });
    await expect.poll(() => rows.textContent()).toMatch(/\(all \d+ count rows\)/);
    const [csv] = await Promise.all([
      page.waitForEvent("download"),
      counted.getByRole("link", { name: "Download CSV" }).click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(/^records-counted-\d{4}-\d{2}-\d{2}\.csv$/);
  }, 60_000);

  it("refuses a POST that another origin's page sends with the console's cookie", async () => {
    // Another origin on the same host (the Google sandbox): same-site, so the browser even sends the cookie.
    const other = await browser.context.newPage();
    await other.goto(`${fixture.google.url}/oauth/tokeninfo`);
    await other.evaluate(async (target) => {
      // A "simple" request: no preflight, sent as is, with credentials. Its answer is not readable
      // (Cross-Origin-Resource-Policy even fails the fetch), but the request reaches the server.
      await fetch(`${target}/console/api/marketo`, {
        method: "POST",
        mode: "no-cors",
        credentials: "include",
        headers: { "content-type": "text/plain" },
        body: JSON.stringify({
          clientId: "attacker",
          clientSecret: "x",
          restEndpoint: "https://evil.example/rest",
        }),
      }).catch(() => undefined);
    }, fixture.base);
    const origin = new URL(fixture.google.url).origin;
    await expect
      .poll(() =>
        fixture.requests.filter((r) => r.origin === origin).map((r) => [r.method, r.path, r.status]),
      )
      .toEqual([["POST", "/console/api/marketo", 403]]);
    expect((await fixture.store.read("default")).marketo?.clientId).toBe(fixture.marketo.clientId);
    await other.close();
  });

  it("ran every screen without a single Content-Security-Policy violation (no eval, no inline script)", () =>
    expectNoCspViolation(session));

  it("never sent a secret to the browser", () => expectNoSecretSent(session, 5));

  /** Fills the key/value editor's last row, adding a row first unless the last one is empty. */
  async function addQueryParameter(key: string, value: string, on: Page = page): Promise<void> {
    const fieldset = on.locator("fieldset#root_query_parameters");
    const names = fieldset.getByLabel("Name", { exact: true });
    if ((await names.last().inputValue()) !== "")
      await fieldset.getByRole("button", { name: "Add a row" }).click();
    const row = fieldset.locator(".kv-row").last();
    await row.getByLabel("Name", { exact: true }).fill(key);
    await row.getByLabel("Value", { exact: true }).fill(value);
  }
});
