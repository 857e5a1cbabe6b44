/**
 * Run Reports' table shows what was asked (trial s7, findings 2 and 4), in headless Chromium: a report
 * sorted by a metric other than the first keeps the answer's order (▼ on the column sorted), and a Total row
 * over more rows than are shown says so.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, launchBrowser } from "../helpers/browser.js";
import { pickChoice } from "../helpers/combobox.js";
import { type ConsoleFixture, startConsoleFixture } from "../helpers/console.js";

type Answer = { rows: Record<string, unknown>[]; row_count: number };

describe("Run Reports' table shows what was asked", () => {
  let fixture: ConsoleFixture;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    fixture = await startConsoleFixture();
    browser = await launchBrowser();
    page = browser.page;
    page.setDefaultTimeout(15_000);
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
  });

  const table = () => page.getByRole("table", { name: "Records" });
  const add = (list: string) =>
    page.locator(`#${list}`).getByRole("button", { name: "Add", exact: true }).last().click();

  /** Run Reports' form, fresh, on the sandbox account, with these metrics and one dimension. */
  async function report(metrics: [string, RegExp][], dimension: [string, RegExp]) {
    await page.goto(fixture.console.loginUrl(fixture.base));
    await page.locator(".workspace").waitFor();
    await page.getByLabel("Search tool steps").fill("analytics");
    await page.getByRole("button", { name: /^Run Reports/ }).click();
    await page.getByLabel("Google account").selectOption("sandbox");
    await expect.poll(() => page.getByLabel("Property").inputValue()).toMatch(/^\d+$/);
    await page.waitForLoadState("networkidle");
    for (const [index, [typed, option]] of metrics.entries()) {
      if ((await page.getByRole("combobox", { name: `Metric ${index + 1}`, exact: true }).count()) === 0)
        await add("root_metrics");
      await pickChoice(page, `Metric ${index + 1}`, typed, option);
    }
    if ((await page.getByRole("combobox", { name: "Dimension 1", exact: true }).count()) === 0)
      await add("root_dimensions");
    await pickChoice(page, "Dimension 1", dimension[0], dimension[1]);
  }

  /** Runs the form; the answer as Raw JSON shows it. */
  async function run(): Promise<Answer> {
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect
      .poll(
        async () =>
          `${await table().locator("tbody tr").count()} ${await page.locator(".runner").innerText()}`,
        { timeout: 30_000 },
      )
      .toMatch(/^[1-9]/);
    return JSON.parse((await page.locator(".results details.raw pre").textContent()) ?? "{}") as Answer;
  }

  it("keeps the order Sort by asked for, a metric other than the first, with ▼ on its column", async () => {
    await report(
      [
        ["Sessions", /^Sessions$/],
        ["Bounce rate", /^Bounce rate$/],
      ],
      ["Country", /^Country$/],
    );
    await page.getByLabel("Sort by", { exact: true }).selectOption({ label: "Bounce rate" });
    await page.getByLabel("Order", { exact: true }).selectOption({ label: "largest first" });
    const answer = await run();
    const asked = answer.rows.map((row) => row.country);
    const bySessions = [...answer.rows]
      .sort((a, b) => Number(b.sessions) - Number(a.sessions))
      .map((row) => row.country);
    // The two orders differ on the sandbox's data, so the table's order tells which one it took.
    expect(asked).not.toEqual(bySessions);
    expect(await table().locator("tbody tr td:first-child").allInnerTexts()).toEqual(asked);
    const headers = await table().locator("thead th").allInnerTexts();
    expect(headers.filter((text) => /[▼▲]$/.test(text))).toEqual(["Bounce rate ▼"]);
    // A person's click on a heading still re-sorts.
    await table()
      .getByRole("button", { name: /^Sessions/ })
      .click();
    await expect.poll(() => table().locator("tbody tr td:first-child").allInnerTexts()).not.toEqual(asked);
  }, 90_000);

  it("says the Total row covers all the report's rows when fewer are shown", async () => {
    await report([["Views", /^Views$/]], ["Page path", /^Page path$/]);
    await page.locator("#root_limit").fill("3");
    const answer = await run();
    expect(answer.rows.length).toBe(3);
    expect(answer.row_count).toBeGreaterThan(3);
    expect(await table().locator("tfoot th").innerText()).toBe(`Total, all ${answer.row_count} rows`);
  }, 90_000);
});
