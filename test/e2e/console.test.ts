/**
 * The console as a person uses it, in headless Chromium: log in with the printed link, find a step,
 * fill in its form, run it, page, chart, fix a field; configure Marketo; connect and remove a
 * Google account on the sandbox's consent screen. The page runs under its real CSP, and every
 * response it receives is searched for the configuration's secrets.
 */
import { readFileSync } from "node:fs";
import type { Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchToolSteps } from "../../src/tools/registry.js";
import { type Browser, launchBrowser } from "../helpers/browser.js";
import { type ConsoleFixture, rawRequest, startConsoleFixture } from "../helpers/console.js";
import { allowStderr } from "../helpers/stderr.js";

describe("the console in a browser", () => {
  let fixture: ConsoleFixture;
  let browser: Browser;
  let page: Page;
  const bodies: Promise<{ url: string; status: number; text: string }>[] = [];
  const cspConsole: string[] = [];

  beforeAll(async () => {
    fixture = await startConsoleFixture();
    browser = await launchBrowser();
    page = browser.page;
    page.setDefaultTimeout(10_000);
    page.on("response", (response: Response) => {
      bodies.push(
        response.text().then(
          (text) => ({ url: response.url(), status: response.status(), text }),
          () => ({ url: response.url(), status: response.status(), text: "" }),
        ),
      );
    });
    page.on("console", (message) => {
      if (/Content.Security.Policy/i.test(message.text())) cspConsole.push(message.text());
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
  });

  const runner = () => page.locator("section.runner");
  const summary = () => page.locator(".results .summary");

  it("asks for a login without the printed link", async () => {
    await page.goto(fixture.base);
    await expect.poll(() => page.getByRole("heading", { name: "Login required" }).isVisible()).toBe(true);
    await browser.screenshot("01-login-required");
  });

  it("says how to get a new link when a used one is opened again", async () => {
    const link = fixture.console.loginUrl(fixture.base);
    // Spent elsewhere (a link preview, another browser): this browser gets no session from it.
    expect(
      (await rawRequest(fixture.base, "GET", new URL(link).pathname + new URL(link).search)).status,
    ).toBe(303);
    await page.goto(link);
    await page.waitForURL(`${fixture.base}/#/login-link-used`);
    await expect
      .poll(() => page.locator(".error").first().textContent())
      .toMatch(/already used.*martech-steps console-link.*npm run console-link.*server keeps running/);
    await browser.screenshot("01-login-link-used");
  });

  it("logs in with the printed link, which leaves the address bar and cannot be read by scripts", async () => {
    await page.goto(fixture.console.loginUrl(fixture.base));
    await page.locator(".workspace").waitFor();
    expect(page.url()).toBe(`${fixture.base}/`);
    expect(await page.evaluate("document.cookie")).toBe("");
  });

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
    await expect.poll(() => summary().textContent()).toMatch(/^GET \/rest\/v1\/leads\.json: 2 records/);
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
    await expect
      .poll(() => summary().textContent())
      .toMatch(/^GET \/rest\/v1\/lists\/1001\/leads\.json: [\d,]+ records read in \d+ pages, \d+ calls\.$/);
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
    await expect.poll(() => summary().textContent()).toMatch(/^GET .*: 5 records read in 1 page, 1 call\.$/);
    const first = await columnOf("id");
    expect(first).toHaveLength(5);
    await page.locator(".results").getByRole("button", { name: "Load more" }).click();
    await expect.poll(rowCount).toBe(10);
    const both = await columnOf("id");
    expect(both.slice(0, 5)).toEqual(first);
    expect(new Set(both).size).toBe(10);
    expect(await page.locator(".results .shown").textContent()).toBe("Showing 10 of 10 records read so far.");
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
      .toMatch(/^Report on Retail Web Store \(properties\/412345671\) .*: \d+ rows/);
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

  it("removes, saves (verified first) and tests the Marketo connection; the secret stays write-only", async () => {
    await page.getByRole("link", { name: "Integrations" }).click();
    const card = page.getByRole("region", { name: "Adobe Marketo Engage" });
    await expect.poll(() => card.getByTestId("marketo-status").textContent()).toMatch(/^Connected to /);
    await expect
      .poll(() => card.locator(".usage").textContent())
      .toMatch(/Calls today.* of 50,000.*Rate window\d+ of 100 calls in the last 20 s/);
    expect(await card.getByLabel("Client Secret").inputValue()).toBe("");
    page.once("dialog", (dialog) => void dialog.accept());
    await card.getByRole("button", { name: "Remove" }).click();
    await expect.poll(() => card.getByTestId("marketo-status").textContent()).toBe("Not configured.");
    await card.getByLabel("Client ID").fill(fixture.marketo.clientId);
    await card.getByLabel("Client Secret").fill(fixture.marketo.clientSecret);
    await card.getByLabel("REST API Endpoint").fill(fixture.marketo.restEndpoint);
    // Test tries the values typed, before anything is saved.
    const host = new URL(fixture.marketo.restEndpoint).host;
    await card.getByRole("button", { name: "Test connection" }).click();
    await expect
      .poll(() => card.getByRole("status").textContent())
      .toMatch(new RegExp(`^Marketo at ${host} accepted these credentials \\(not saved yet`));
    await expect.poll(() => card.getByTestId("marketo-last-test").getAttribute("data-ok")).toBe("true");
    expect((await fixture.store.read("default")).marketo).toBeUndefined();
    await card.getByLabel("Client Secret").fill("a-wrong-secret");
    await card.getByRole("button", { name: "Test connection" }).click();
    await expect
      .poll(() => card.getByRole("alert").textContent())
      .toMatch(/Marketo refused the client credentials/);
    await expect.poll(() => card.getByTestId("marketo-last-test").getAttribute("data-ok")).toBe("false");
    expect(await card.getByTestId("marketo-last-test").textContent()).toMatch(
      /^Last tested .*: failed\. Marketo refused the client credentials/,
    );
    await card.getByRole("button", { name: "Save" }).click();
    await expect
      .poll(() => card.getByRole("alert").textContent())
      .toMatch(/Marketo refused the client credentials/);
    expect((await fixture.store.read("default")).marketo).toBeUndefined();
    await card.getByLabel("Client Secret").fill(fixture.marketo.clientSecret);
    await card.getByRole("button", { name: "Save" }).click();
    await expect
      .poll(() => card.getByRole("status").textContent())
      .toMatch(/Marketo accepted the credentials/);
    expect(await card.getByLabel("Client Secret").inputValue()).toBe("");
    expect(await card.locator(".secret-state").textContent()).toBe(" Secret: set.");
    // Nothing typed but the saved values: the saved connection is tested.
    await card.getByRole("button", { name: "Test connection" }).click();
    await expect
      .poll(() => card.getByRole("status").textContent())
      .toMatch(/accepted the saved credentials \(a token valid for/);
    await expect
      .poll(() => card.getByTestId("marketo-last-test").textContent())
      .toMatch(/^Last tested .*: OK\. Marketo at .* accepted the saved credentials/);
    await browser.screenshot("07-integrations-marketo");
  });

  it("connects a Google account on the sandbox's consent screen, then removes it after a confirmation", async () => {
    const card = page.getByRole("region", { name: "Google Analytics 4" });
    const accounts = card.getByRole("list", { name: "Connected Google accounts" });
    await expect.poll(() => accounts.locator(":scope > li").count()).toBe(2);
    const reader = accounts.locator("li", { hasText: "reader" });
    expect(await reader.locator(".badge").textContent()).toBe("read only");
    await card.getByRole("button", { name: "Connect a Google account" }).click();
    // The sandbox consents as its configured user, sends the browser back to the console's callback, which returns here.
    await page.waitForURL(`${fixture.base}/#/integrations?connected=editor`);
    await expect
      .poll(() => page.getByText('The Google account "editor" is connected.').isVisible())
      .toBe(true);
    const editor = accounts.locator("li", { hasText: "editor@sandbox.example" });
    await editor.waitFor();
    expect(await editor.textContent()).toContain("analytics.edit");
    await browser.screenshot("08-integrations-google-connected");
    const revocations = fixture.google.stats().revocations;
    let asked = "";
    page.once("dialog", (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await editor.getByRole("button", { name: "Remove" }).click();
    await expect
      .poll(() => card.getByRole("status").textContent())
      .toBe('"editor" was removed and its access revoked at Google.');
    expect(asked).toMatch(/Remove the Google account "editor"\? Its access is revoked at Google\./);
    expect(await accounts.locator(":scope > li").count()).toBe(2);
    expect(fixture.google.stats().revocations).toBe(revocations + 1);
  });

  it("shows a long run's progress and cancels it", async () => {
    // A second console whose Marketo connection allows one call per 2 s: page 2 of a list must wait.
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
      const progress = tab.locator(".progress");
      // Pages and records read, then the wait: not a bare "waiting" that reads as if nothing happened.
      await expect
        .poll(() => progress.textContent())
        .toMatch(/^Page 1, 50 records read\. Waiting \d s for Marketo's rate window limit$/);
      expect(await progress.locator("progress").getAttribute("max")).toBe("5000");
      await browser.screenshot("09-long-run-progress", tab);
      const calls = slow.marketo.stats().apiCalls;
      await tab.getByRole("button", { name: "Cancel" }).click();
      // Cancel keeps what was read and says so; it is no error.
      const stopped = tab.locator(".results .summary[data-outcome='stopped']");
      await expect.poll(() => stopped.textContent()).toBe("Stopped after 50 records.");
      await expect
        .poll(() => tab.getByRole("table", { name: "Records" }).locator("tbody tr").count())
        .toBe(50);
      expect(await tab.locator(".problem").count()).toBe(0);
      expect(await tab.locator(".results").getByRole("link", { name: "Download CSV" }).count()).toBe(1);
      await browser.screenshot("09-long-run-stopped", tab);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(slow.marketo.stats().apiCalls).toBe(calls);
    } finally {
      await tab.close();
      await slow.close();
    }
  });

  it("stops a run when the person leaves its step for another screen", async () => {
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
      await expect.poll(() => tab.locator(".progress").textContent()).toMatch(/^Page 1, 50 records read\./);
      await tab.getByRole("link", { name: "Integrations" }).click();
      await tab.getByRole("heading", { level: 1 }).waitFor();
      // The run nobody sees any more is dropped: no more calls on the workspace's Marketo quota.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const calls = slow.marketo.stats().apiCalls;
      await new Promise((resolve) => setTimeout(resolve, 4_500));
      expect(slow.marketo.stats().apiCalls).toBe(calls);
    } finally {
      await tab.close();
      await slow.close();
    }
  });

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

  it("runs every screen without a single Content-Security-Policy violation (no eval, no inline script)", async () => {
    expect(fixture.console.cspReports()).toEqual([]);
    expect(cspConsole).toEqual([]);
    // The reporting works: an inline script is blocked and reported (and the server logs it as a warning).
    allowStderr(/"msg":"the console page reported a Content-Security-Policy violation"/);
    await page.evaluate(`{
      const script = document.createElement("script");
      script.textContent = "window.inlineRan = true";
      document.body.append(script);
    }`);
    await expect.poll(() => fixture.console.cspReports().length).toBe(1);
    expect(fixture.console.cspReports()[0]).toMatchObject({
      directive: expect.stringMatching(/^script-src/),
      blocked: "inline",
    });
    expect(await page.evaluate("window.inlineRan")).toBeUndefined();
  });

  it("never sent a secret to the browser", async () => {
    const answers = await Promise.all(bodies);
    expect(answers.length).toBeGreaterThan(30);
    const canaries = await fixture.canaries();
    for (const answer of answers) {
      for (const canary of canaries)
        expect({ url: answer.url, leaked: answer.text.includes(canary) }).toEqual({
          url: answer.url,
          leaked: false,
        });
    }
  });

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
  }
});
