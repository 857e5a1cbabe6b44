/**
 * Run Reports' "Add a condition" beside the Filter box (console review s10, finding 7: the filter's grammar
 * was hidden, "is the value mobile or Mobile?"), in headless Chromium at 1280 and 400 px: a dimension or
 * metric picked by its name in Google Analytics, only the operators its kind takes, a dimension's values
 * as GA has them for the report's period, a metric's value checked as a number; each condition added to
 * the Filter text with "and", which stays editable. The report run with the built filter gives the same
 * rows as the same filter typed by hand, and other rows than no filter.
 * Screenshots: test-output/screenshots/report-filter-<width>-*.png, copied to /work/review-pickers.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, launchBrowser, SCREENSHOTS } from "../helpers/browser.js";
import { pickChoice } from "../helpers/combobox.js";
import { type ConsoleFixture, startConsoleFixture } from "../helpers/console.js";
import { expectPersonScreen } from "../helpers/person-screen.js";
import { reportForm } from "../helpers/report-form.js";

const REVIEW = "/work/review-pickers";

describe("Run Reports' filter built from lists", () => {
  let fixture: ConsoleFixture;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    fixture = await startConsoleFixture();
    browser = await launchBrowser();
    page = browser.page;
    page.setDefaultTimeout(15_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
  });

  const { table, runReportsFrom, runForRows } = reportForm(
    () => page,
    () => fixture,
  );
  const filter = () => page.getByLabel("Filter", { exact: true });
  const builder = () => page.locator("details.condition-builder");
  const rowsShown = async () => {
    await runForRows(30_000);
    return table().locator("tbody").innerText();
  };
  const screen = async (width: number, name: string) => {
    await expectPersonScreen(page, `report-filter-${width}-${name}`);
    await browser.screenshot(`report-filter-${width}-${name}`);
    mkdirSync(REVIEW, { recursive: true });
    copyFileSync(
      join(SCREENSHOTS, `report-filter-${width}-${name}.png`),
      join(REVIEW, `report-filter-${width}-${name}.png`),
    );
  };

  it.each([1280, 400])(
    "adds a dimension's and a metric's condition at %i px, and runs as the same filter typed",
    async (width) => {
      await runReportsFrom("Active users per day, last 28 days", width);
      const unfiltered = await rowsShown();
      await builder().locator("summary").click();
      expect(await builder().locator("summary").textContent()).toBe("Add a condition");
      // A dimension by its name in Google Analytics: only the text operators, in words.
      await pickChoice(page, "Dimension or metric", "device cat", /^Device category/);
      const condition = page.getByLabel("Condition", { exact: true });
      expect(await condition.locator("option").allInnerTexts()).toEqual([
        "is",
        "is not",
        "contains",
        "does not contain",
        "begins with",
        "ends with",
      ]);
      // Its values as GA writes them for the report's period, with how often each was seen.
      const value = page.getByRole("combobox", { name: "Value", exact: true });
      await value.focus();
      const mobile = page.locator(`#${await value.getAttribute("aria-controls")}`).getByRole("option", {
        name: /^mobile [\d,]+ events$/,
      });
      await mobile.waitFor();
      await mobile.click();
      await expect.poll(() => value.inputValue()).toBe("mobile");
      await page.getByRole("button", { name: "Add to the filter" }).click();
      await expect.poll(() => filter().inputValue()).toBe('Device category = "mobile"');
      expect(await builder().locator("p[role=status]").textContent()).toBe(
        'Added to the filter: Device category = "mobile"',
      );
      // A metric: number comparisons only, and a value that is no number said under Value.
      await pickChoice(page, "Dimension or metric", "Sessions", /^Sessions/);
      expect(await condition.locator("option").allInnerTexts()).toEqual([
        "is (=)",
        "is not (≠)",
        "is more than (>)",
        "is at least (≥)",
        "is less than (<)",
        "is at most (≤)",
      ]);
      await condition.selectOption({ label: "is more than (>)" });
      const number = page.getByRole("textbox", { name: "Value", exact: true });
      await number.fill("ten");
      await page.getByRole("button", { name: "Add to the filter" }).click();
      await expect
        .poll(() => builder().locator(".error-detail").textContent())
        .toBe("Sessions is a number: type one, e.g. 10 or 2.5, without spaces or commas.");
      expect(await filter().inputValue()).toBe('Device category = "mobile"');
      await number.fill("1");
      await page.getByRole("button", { name: "Add to the filter" }).click();
      await expect.poll(() => filter().inputValue()).toBe('Device category = "mobile" and Sessions > 1');
      await screen(width, "built");
      const built = await rowsShown();
      expect(built).not.toBe(unfiltered);
      await screen(width, "result");
      // The same filter typed by hand, in the Filter box's own words: the same rows.
      await filter().fill("Device category = mobile and Sessions > 1");
      expect(await rowsShown()).toBe(built);
    },
    120_000,
  );
});
