/**
 * Run Reports' "Add a condition" beside the Filter box (console review s10, finding 7: the filter's grammar
 * was hidden, "is the value mobile or Mobile?"), in headless Chromium at 1280 and 400 px: a dimension or
 * metric picked by its name in Google Analytics, only the operators its kind takes, a dimension's values
 * as GA has them for the report's period, a metric's value checked as a number; each condition added to
 * the Filter text with "and", which stays editable. The report run with the built filter gives the same
 * rows as the same filter typed by hand, and other rows than no filter.
 * A value typed for "is" and not picked (console review s13, finding 2: "united" for Country gave an empty
 * report) is taken as the value GA has that it names, any case, or not added, with the nearest values GA
 * has under the box; "contains" keeps it as typed. An empty filtered report's note says it by the
 * pickers' names, with what to do on the page.
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
      // Polled: the comparisons change when the page has taken the pick, which a loaded machine delays (a
      // clean-clone run read the dimension's list once, 2026-12-04).
      await expect
        .poll(() => condition.locator("option").allInnerTexts())
        .toEqual([
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

  it.each([1280, 400])(
    "takes a typed value for 'is' only as a value GA has at %i px, and words an empty report's note",
    async (width) => {
      await runReportsFrom("Active users per day, last 28 days", width);
      await builder().locator("summary").click();
      await pickChoice(page, "Dimension or metric", "Country", /^Country$/);
      const value = page.getByRole("combobox", { name: "Value", exact: true });
      // The values GA has for Country have come (the box asks to pick one; focused, it lists them) before
      // anything is typed: focused sooner, it has no list to open.
      await expect.poll(() => value.getAttribute("placeholder")).toBe("Pick or type a value");
      await value.focus();
      const list = page.locator(`#${await value.getAttribute("aria-controls")}`);
      await list.getByRole("option", { name: /^United States [\d,]+ events$/ }).waitFor();
      // Typed and added without a pick. At 400 px the open list lies over the button: closed first.
      const addTyped = async (text: string) => {
        await value.fill(text);
        if ((await value.getAttribute("aria-expanded")) === "true" && width < 600)
          await value.press("Escape");
        await page.getByRole("button", { name: "Add to the filter" }).click();
      };
      // No such value: not added, and the nearest values GA has said under the box.
      await addTyped("united");
      const error = builder().locator(".error-detail");
      await expect
        .poll(() => error.textContent())
        .toBe(
          'Country has no value "united": did you mean United States or United Kingdom? Pick one from the ' +
            'list, or choose "contains" to match part of a name.',
        );
      expect(await value.getAttribute("aria-invalid")).toBe("true");
      expect(await filter().inputValue()).toBe("");
      await screen(width, "unknown-value");
      // A value GA has, typed in another case: taken as GA writes it.
      await addTyped("united states");
      await expect.poll(() => filter().inputValue()).toBe('Country = "United States"');
      expect(await error.count()).toBe(0);
      // "contains" matches part of a value: the text is kept as typed.
      await page.getByLabel("Condition", { exact: true }).selectOption({ label: "contains" });
      await addTyped("united");
      await expect
        .poll(() => filter().inputValue())
        .toBe('Country = "United States" and Country contains "united"');
      // A filter that keeps no row (typed in the Filter box): the page's note by the pickers' names.
      await filter().fill('Country = "united"');
      await page.getByRole("button", { name: "Run", exact: true }).click();
      const note = page.getByRole("list", { name: "Warnings" }).getByRole("listitem").first();
      await expect
        .poll(() => note.innerText(), { timeout: 30_000 })
        .toMatch(
          /^No rows: no visit on these dates had Country = united \(without the filter, Active users is [\d,]+\)\. Check the value or remove the condition\.$/,
        );
      await screen(width, "no-rows");
    },
    120_000,
  );
});
