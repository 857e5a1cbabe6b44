/**
 * A step run in the console as a person does it, in headless Chromium: find a step, fill in its form,
 * run it, sort, page (Load more), read on, fix a field, run a report with its chart.
 * The page runs under its real CSP, and every response it receives is searched for the configuration's
 * secrets (test/helpers/console-session.ts).
 */

import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchToolSteps } from "../../src/tools/registry.js";
import type { Browser } from "../helpers/browser.js";
import type { ConsoleFixture } from "../helpers/console.js";
import {
  type ConsoleSession,
  closeConsoleSession,
  expectNoCspViolation,
  expectNoSecretSent,
  openConsoleSession,
} from "../helpers/console-session.js";

/** Words of an agent or an API a result screen never shows a person (issue 28 review, item 4). */
const API_WORDS =
  /records read|read so far|\bv\d+(?:alpha|beta)\b|marketo_[a-z_]+|google_analytics_[a-z_]+|next_cursor/;

describe("running steps in the console", () => {
  let session: ConsoleSession;
  let fixture: ConsoleFixture;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    session = await openConsoleSession({ login: true });
    ({ fixture, browser, page } = session);
  }, 60_000);

  afterAll(() => closeConsoleSession(session));

  const runner = () => page.locator("section.runner");
  const summary = () => page.locator(".results .summary");
  /** A Marketo result's own line, under the headline's Details (the headline says it in words). */
  const stepLine = () => page.locator(".results details.result-details p");

  it("finds the Marketo step by typing marketing automation, and the GA4 steps by analytics", async () => {
    const search = page.getByLabel("Search tool steps");
    await search.fill("marketing automation");
    const hits = page.locator(".hits .hit");
    await expect.poll(() => hits.first().locator(".hit-title").textContent()).toBe("Marketo API Call");
    await expect
      .poll(() => hits.first().locator(".hit-meta").textContent())
      .toBe("Adobe Marketo Engage · Marketing automation");
    await expect
      .poll(() => hits.first().locator(".hit-summary").textContent())
      .toMatch(/^Calls any Adobe Marketo/);
    await browser.screenshot("02-search-marketing-automation");
    await search.fill("analytics");
    const expected = searchToolSteps("analytics").map((hit) => hit.title);
    await expect.poll(() => hits.locator(".hit-title").allTextContents()).toEqual(expected);
    expect(expected.slice(0, 4).every((title) => title !== "Marketo API Call")).toBe(true);
  });

  it("fills in and runs a Marketo lead lookup, and sorts its table", async () => {
    await page.getByLabel("Search tool steps").fill("marketing automation");
    await page.getByRole("button", { name: /Marketo API Call/ }).click();
    await page.locator("#root_method").selectOption("GET");
    await page.locator("#root_endpoint").fill("/rest/v1/leads.json");
    await addQueryParameter("filterType", "email");
    await addQueryParameter("filterValues", "lead7@example.com,lead3@example.com");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect.poll(() => summary().textContent()).toBe("Marketo returned 2 records.");
    expect(await stepLine().textContent()).toMatch(/^GET \/rest\/v1\/leads\.json: 2 records/);
    const table = page.getByRole("table", { name: "Records" });
    const firstEmail = () => table.locator("tbody tr").first().locator("td").nth(emailColumn()).textContent();
    let column = 0;
    const emailColumn = () => column;
    column = (await table.locator("thead th").allTextContents()).findIndex((h) => h.startsWith("email"));
    await table.getByRole("button", { name: /^email/ }).click();
    await expect.poll(firstEmail).toBe("lead3@example.com");
    await table.getByRole("button", { name: /^email/ }).click();
    await expect.poll(firstEmail).toBe("lead7@example.com");
    expect(await table.locator("thead th").nth(column).getAttribute("aria-sort")).toBe("descending");
    await browser.screenshot("03-marketo-lead-lookup");
  });

  it("shows a whole static list in the page: Load more appends the kept result, no agent paging words", async () => {
    await page.locator("#root_endpoint").fill("/rest/v1/lists/1001/leads.json");
    await removeQueryParameters();
    await page.locator("#root_paginate").check();
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect.poll(() => summary().textContent()).toMatch(/^Marketo returned [\d,]+ records\.$/);
    expect(await stepLine().textContent()).toMatch(
      /^GET \/rest\/v1\/lists\/1001\/leads\.json: [\d,]+ records read in \d+ pages, \d+ calls\.$/,
    );
    // The page scrolled to the result: its heading is in view, below the top of a page that scrolled.
    // (Strings: the tests' type-check has no DOM library; the expressions run in the page.)
    const top = Number(
      await page.evaluate('document.getElementById("result-heading").getBoundingClientRect().top'),
    );
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(200);
    expect(Number(await page.evaluate("window.scrollY"))).toBeGreaterThan(0);
    const results = page.locator(".results");
    const shown = () => results.locator(".shown").textContent();
    await expect.poll(shown).toMatch(/^Showing \d+ of 1,\d{3} records\.$/);
    const total = Number((/of ([\d,]+)/.exec((await shown()) ?? "")?.[1] ?? "0").replace(",", ""));
    const firstShown = await rowCount();
    expect(firstShown).toBeLessThan(total);
    await browser.screenshot("04-list-whole-first-part");
    const more = results.getByRole("button", { name: "Load more" });
    while (await more.isVisible()) {
      const before = await rowCount();
      await more.click();
      await expect.poll(rowCount).toBeGreaterThan(before);
    }
    expect(await rowCount()).toBe(total);
    expect(await shown()).toBe(
      `Showing ${total.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} records.`,
    );
    const ids = await columnOf("id");
    expect(new Set(ids).size).toBe(total);
    // An agent is told to pass next_cursor back; a person reads none of that.
    expect(await results.innerText()).not.toMatch(/next_cursor|cursor =|full result linked/);
    await browser.screenshot("04-list-whole-loaded");
    // Both downloads hold the whole result, the records in the table.
    const csv = await download("Download CSV");
    const lines = csv.trim().split("\r\n");
    expect(lines).toHaveLength(total + 1);
    const idAt = lines[0]?.split(",").indexOf("id") ?? -1;
    expect(new Set(lines.slice(1).map((line) => line.split(",")[idAt]))).toEqual(new Set(ids));
    const json = JSON.parse(await download("Download JSON")) as { id: number }[];
    expect(json.map((lead) => String(lead.id)).sort()).toEqual([...ids].sort());
  });

  it("reads on past a read that stopped (no paging): Load more runs the next read and appends it", async () => {
    await page.locator("#root_paginate").uncheck();
    await addQueryParameter("batchSize", "5");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect.poll(() => summary().textContent()).toBe("Marketo returned 5 records.");
    expect(await stepLine().textContent()).toMatch(/^GET .*: 5 records read in 1 page, 1 call\.$/);
    const first = await columnOf("id");
    expect(first).toHaveLength(5);
    await page.locator(".results").getByRole("button", { name: "Load more" }).click();
    await expect.poll(rowCount).toBe(10);
    const both = await columnOf("id");
    expect(both.slice(0, 5)).toEqual(first);
    expect(new Set(both).size).toBe(10);
    expect(await page.locator(".results .shown").textContent()).toBe(
      "Showing 10 of 10 records loaded so far.",
    );
    // The result as a person reads it (Details, the step's own line and REST call, aside): no agent words.
    const shown = (await page.locator(".results > :not(details)").allInnerTexts()).join("\n");
    expect(shown).not.toMatch(API_WORDS);
    await browser.screenshot("04-list-read-on");
    await removeQueryParameters();
  });

  it("shows a validation error on its field, in the server's words, before anything is sent", async () => {
    const calls = fixture.marketo.stats().apiCalls;
    await page.locator("#root_max_pages").fill("0");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const problem = runner().locator(".problem");
    await expect
      .poll(() => problem.locator(".problem-message").textContent())
      .toBe("Most pages: Too small: expected number to be >=1; received a number 0.");
    expect(await problem.locator(".problem-hint").textContent()).toBe(
      "Fix the input and call again; nothing was sent.",
    );
    const field = page.locator(".form-group", { has: page.locator("#root_max_pages") });
    await expect
      .poll(() => field.locator(".error-detail").textContent())
      .toBe("Too small: expected number to be >=1; received a number 0");
    expect(fixture.marketo.stats().apiCalls).toBe(calls);
    await browser.screenshot("05-validation-error");
    // A check only the server makes (a body with GET) comes back on its field too.
    await page.locator("#root_max_pages").fill("20");
    await page.locator("#root_body").fill('{"input": []}');
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect
      .poll(() => problem.locator(".problem-message").textContent())
      .toBe("Body (JSON): a body is only sent with POST, not GET.");
    const body = page.locator(".form-group", { has: page.locator("#root_body") });
    await expect
      .poll(() => body.locator(".error-detail").textContent())
      .toContain("a body is only sent with POST");
    await page.locator("#root_body").fill("");
  });

  it("runs a report and draws its chart beside the table", async () => {
    await page.getByLabel("Search tool steps").fill("analytics");
    await page.getByRole("button", { name: /^Run Reports/ }).click();
    await page.locator("#root_account").selectOption("sandbox");
    await page.locator("#root_property").selectOption("412345671");
    await addArrayItem("metrics", "sessions");
    await addArrayItem("dimensions", "date");
    await page.locator("fieldset#root_date_ranges").getByRole("button", { name: "Add" }).click();
    await page.locator("#root_date_ranges_0").selectOption("last14days");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect
      .poll(() => summary().textContent(), { timeout: 15_000 })
      // The property by name, its id in parentheses as the Property picker lists it (trial s8 review).
      .toMatch(/^Report on Retail Web Store \(412345671\) .*: \d+ rows/);
    const chart = page.locator("figure.chart[data-kind='line']");
    await chart.locator("canvas").waitFor();
    // Fields named as Google Analytics shows them (typed as API names, they read as UI names).
    expect(await chart.locator("[role=img]").getAttribute("aria-label")).toBe("Chart: Sessions by Date");
    const table = page.getByRole("table", { name: "Records" });
    expect(await table.locator("tbody tr").count()).toBe(14);
    // Dates as people write them, in the chart's order (by date), and still sortable by any column.
    const dates = await columnOf("Date");
    expect(dates.every((date) => /^\d{4}-\d{2}-\d{2}$/.test(date))).toBe(true);
    expect(dates).toEqual([...dates].sort());
    expect(new Set(dates).size).toBe(14);
    const dateHeader = table.locator("thead th", { hasText: "Date" });
    expect(await dateHeader.getAttribute("aria-sort")).toBe("ascending");
    // The API name on hover.
    expect(await dateHeader.getByRole("button").getAttribute("title")).toBe("date");
    // A number sorts largest first on the first click; it reads with the locale's separators.
    await table.getByRole("button", { name: /^Sessions/ }).click();
    expect(await table.locator("thead th", { hasText: "Sessions" }).getAttribute("aria-sort")).toBe(
      "descending",
    );
    const sessions = (await columnOf("Sessions")).map((text) => Number(text.replace(/,/g, "")));
    expect(sessions).toEqual([...sessions].sort((a, b) => b - a));
    await browser.screenshot("06-report-chart");
  });

  it("ran every screen without a single Content-Security-Policy violation (no eval, no inline script)", () =>
    expectNoCspViolation(session));

  it("never sent a secret to the browser", () => expectNoSecretSent(session, 20));

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

  /** The rows of the Records table. */
  async function rowCount(): Promise<number> {
    return page.getByRole("table", { name: "Records" }).locator("tbody tr").count();
  }

  /** The cells of a column of the Records table, by its header. */
  async function columnOf(name: string): Promise<string[]> {
    const table = page.getByRole("table", { name: "Records" });
    const headers = await table.locator("thead th").allTextContents();
    const index = headers.findIndex((header) => header.replace(/ [▲▼]$/, "") === name);
    expect(index, headers.join()).toBeGreaterThanOrEqual(0);
    return table.locator(`tbody tr td:nth-child(${index + 1})`).allTextContents();
  }

  /** Clicks a download link of the result as a person would, and reads the file the browser saved. */
  async function download(name: string): Promise<string> {
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      page.locator(".results").getByRole("link", { name }).click(),
    ]);
    const path = await file.path();
    const text = readFileSync(path, "utf8");
    await file.delete();
    return text;
  }

  /** Empties the key/value editor (its last row stays, empty). */
  async function removeQueryParameters(): Promise<void> {
    const fieldset = page.locator("fieldset#root_query_parameters");
    while ((await fieldset.locator(".kv-row").count()) > 1)
      await fieldset
        .getByRole("button", { name: /^Remove row/ })
        .first()
        .click();
    await fieldset.getByRole("button", { name: /^Remove row/ }).click();
  }

  /** Fills the first item of a list, adding it first unless the form already shows it (a required list). */
  async function addArrayItem(field: string, value: string): Promise<void> {
    const item = page.locator(`#root_${field}_0`);
    if ((await item.count()) === 0)
      await page.locator(`fieldset#root_${field}`).getByRole("button", { name: "Add" }).click();
    await item.fill(value);
    // Typing opens the field's suggestions, which lie over the controls below it until the field loses focus
    // (as a person's next click elsewhere does): leave it, so the next Add is not under the open list.
    // Leaving it settles an API name on the name Google Analytics shows ("sessions" reads "Sessions").
    await item.blur();
    await expect.poll(() => item.inputValue()).toMatch(new RegExp(`^${value}$`, "i"));
  }
});
