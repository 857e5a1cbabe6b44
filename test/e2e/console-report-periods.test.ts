/**
 * Run Reports' periods as a person picks them, in headless Chromium at 1280 and 400 px (newcomer trial
 * 2026-12-03-s9): a preset shows the days it covers under its select before Run, the days the report then
 * states, and the result's headline says them in the page's one style of dates (finding 5); the comparison
 * example fills a preset and real dates in date boxes, never 28daysAgo in a text box (finding 6).
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations } from "../helpers/axe.js";
import type { Browser } from "../helpers/browser.js";
import type { ConsoleFixture } from "../helpers/console.js";
import { reportForm } from "../helpers/report-form.js";
import { signedInConsole } from "../helpers/signed-in-console.js";

const WIDTHS = [1280, 400] as const;
/** A span of days or one day as the page words it: "26 Nov – 2 Dec 2026", "2 Dec 2026". */
const WORDED =
  /^\d{1,2}( [A-Z][a-z]{2}( \d{4})?)?[\s\u2009]–[\s\u2009]\d{1,2} [A-Z][a-z]{2} \d{4}$|^\d{1,2} [A-Z][a-z]{2} \d{4}$/;

describe("Run Reports' periods as a person picks them", () => {
  let fixture: ConsoleFixture;
  let browser: Browser;
  let page: Page;

  signedInConsole({ timeout: 15_000 }, (signedIn) => {
    ({ fixture, browser, page } = signedIn);
  });

  const { results, runReportsFrom, runForRows } = reportForm(
    () => page,
    () => fixture,
  );
  /** The days shown under Period `n`'s select, read through its description. */
  const daysOf = async (n: number) => {
    const select = page.getByLabel(`Period ${n}`, { exact: true });
    await expect.poll(() => select.getAttribute("aria-describedby")).toBeTruthy();
    return page.locator(`#${await select.getAttribute("aria-describedby")}`).innerText();
  };

  it.each(WIDTHS)(
    "shows a preset's days under its select, the days the report then states, at %i px (finding 5)",
    async (width) => {
      await runReportsFrom("Active users per day, last 28 days", width);
      const period = page.getByLabel("Period 1", { exact: true });
      expect(await daysOf(1)).toMatch(WORDED);
      await period.selectOption("yesterday");
      await expect.poll(() => daysOf(1)).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);
      const yesterday = await daysOf(1);
      await period.selectOption("last7days");
      await expect.poll(() => daysOf(1)).not.toBe(yesterday);
      const week = await daysOf(1);
      expect(week).toMatch(WORDED);
      // Last 7 days ends yesterday.
      expect(week.endsWith(yesterday)).toBe(true);
      await browser.screenshot(`report-periods-preset-days-${width}`);
      await runForRows(30_000);
      // The report states the same days, in the same words, in its headline: no ISO day there.
      const headline = (await results().locator(".summary").innerText()) ?? "";
      expect(headline.replace(/[\u2009\u202f]/g, " ")).toContain(
        ` for ${week.replace(/[\u2009\u202f]/g, " ")}`,
      );
      expect(headline).not.toMatch(/\d{4}-\d{2}-\d{2}/);
      // Custom dates show no preset's days.
      await period.selectOption("custom");
      expect(await period.getAttribute("aria-describedby")).toBeNull();
      expect(await axeViolations(page)).toEqual([]);
    },
    60_000,
  );

  it.each(WIDTHS)(
    "fills the comparison example as a person picks periods: a preset, and real dates in date boxes, at %i px (finding 6)",
    async (width) => {
      await runReportsFrom("Sessions by channel, last 28 days vs the 28 before", width);
      expect(await page.getByLabel("Period 1", { exact: true }).inputValue()).toBe("last28days");
      const last28 = await daysOf(1);
      expect(last28).toMatch(WORDED);
      expect(await page.getByLabel("Period 2", { exact: true }).inputValue()).toBe("custom");
      const [start, end] = [
        page.locator("#root_date_ranges_1_start_date"),
        page.locator("#root_date_ranges_1_end_date"),
      ];
      for (const box of [start, end]) {
        expect(await box.getAttribute("type")).toBe("date");
        expect(await box.inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
      // 28 days, ending the day before Last 28 days starts, both in the property's time zone (America/New_York
      // in the sandbox): at any hour, also those after midnight UTC when UTC's days are a day ahead.
      const [from, to] = [Date.parse(await start.inputValue()), Date.parse(await end.inputValue())];
      expect((to - from) / 86_400_000 + 1).toBe(28);
      expect(String(new Date(to + 86_400_000).getUTCDate())).toBe(last28.split(/[\s\u2009]/)[0]);
      expect(await page.locator("main form").innerText()).not.toMatch(/daysAgo|yesterday/);
      const texts = await page
        .locator("#root_date_ranges input[type='text']")
        .evaluateAll((boxes) => boxes.map((box) => (box as unknown as { id: string }).id));
      // The labels alone are text; every date box is a date picker.
      expect(texts.every((id) => id.endsWith("_name"))).toBe(true);
      await browser.screenshot(`report-periods-example-${width}`);
      await runForRows(30_000);
      const headline = (await results().locator(".summary").textContent()) ?? "";
      expect(headline).toMatch(
        /^Sessions went from [\d,]+ in the 28 days before \(.+?\) to [\d,]+ in the last 28 days \(.+?\)/,
      );
      expect(headline).toMatch(/Both periods have 28 days\.$/);
    },
    60_000,
  );
});
