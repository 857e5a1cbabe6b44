/**
 * Run Reports in the console, driven as a person does in headless Chromium: opened from the tool-step search,
 * filled by an example, run until its table has rows. Shared by the report e2e files so each one tests its
 * own subject, not the way there.
 */
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import type { ConsoleFixture } from "./console.js";

/** The day `n` days before today, YYYY-MM-DD: periods well inside the sandbox's 400 days of data. */
export const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/** `text` as a literal inside a RegExp. */
export const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Page and fixture are read when called: a test file opens them in its beforeAll. */
export function reportForm(page: () => Page, fixture: () => ConsoleFixture) {
  const results = () => page().locator(".results");
  const table = () => page().getByRole("table", { name: "Records" });

  /**
   * Run Reports at `width`, on the sandbox's account and property, filled by an example. The account and its
   * property first, then the example: an example clicked while the pickers still load their defaults could be
   * overwritten by them (CI, this session: an empty form at 400 px).
   */
  const runReportsFrom = async (example: string, width: number) => {
    await page().setViewportSize({ width, height: 900 });
    await page().goto(fixture().console.loginUrl(fixture().base));
    await page().getByLabel("Search tool steps").fill("analytics");
    await page()
      .getByRole("button", { name: /^Run Reports/ })
      .click();
    await page().getByLabel("Google account").selectOption("sandbox");
    await expect.poll(() => page().getByLabel("Property").inputValue()).toMatch(/^\d+$/);
    await page().waitForLoadState("networkidle");
    await page().getByRole("button", { name: example }).click();
    // The example's first metric shows in its box before the test types there: typed sooner, the example's
    // value landing after it replaced the text (CI, Node 22: "Active users" left where a metric was typed).
    await expect
      .poll(() => page().getByRole("combobox", { name: "Metric 1", exact: true }).inputValue())
      .not.toBe("");
    await page().waitForLoadState("networkidle");
  };

  /** Clicks Run and waits for the table's first row; what the page says is in the failure message (a run refused reads differently). */
  const runForRows = async (timeout = 20_000) => {
    await page().getByRole("button", { name: "Run", exact: true }).click();
    await expect
      .poll(
        async () =>
          `${await table().locator("tbody tr").count()} ${await page().locator(".runner").innerText()}`,
        { timeout },
      )
      .toMatch(/^[1-9]/);
  };

  /** Run Reports with its two-period example, on the sandbox account's first property. */
  const runComparison = async (width: number) => {
    await runReportsFrom("Sessions by channel, last 28 days vs the 28 before", width);
    await page().getByRole("button", { name: "Run", exact: true }).click();
    await expect
      .poll(
        async () => `${await table().locator("tbody tr").count()} ${(await results().count()) ? "" : "none"}`,
        { timeout: 30_000 },
      )
      .toMatch(/^[1-9]\d* $/);
  };

  /** Sets Period `index` (0-based) to custom dates, adding it when the form has fewer. */
  const customPeriod = async (index: number, start: string, end: string) => {
    if ((await page().locator(`#root_date_ranges_${index}`).count()) === 0)
      await page()
        .locator("#root_date_ranges")
        .getByRole("button", { name: "Add", exact: true })
        .last()
        .click();
    const period = page().getByLabel(`Period ${index + 1}`, { exact: true });
    if ((await period.inputValue()) !== "custom") await period.selectOption("custom");
    await page().locator(`#root_date_ranges_${index}_start_date`).fill(start);
    await page().locator(`#root_date_ranges_${index}_end_date`).fill(end);
  };

  /** The downloaded CSV, whole. */
  const downloadCsv = async (): Promise<string> => {
    const [file] = await Promise.all([
      page().waitForEvent("download"),
      results().getByRole("link", { name: "Download CSV" }).click(),
    ]);
    const csv = readFileSync(await file.path(), "utf8");
    await file.delete();
    return csv;
  };

  return { results, table, runReportsFrom, runForRows, runComparison, customPeriod, downloadCsv };
}
