/**
 * Two periods compared, one measure at a time, and a filtered report's chart title, in headless Chromium at
 * 1280 and 400 px (console review s10, findings 1, 3 and 4): sessions, purchases and revenue by channel,
 * this week vs last week, showed twelve columns with revenue behind "Scroll sideways for 5 more columns →"
 * at 1280 px and a card of 13 lines per channel at 400 px. Now a choice above the table ("Show") and a table
 * of this period, previous period and change, which fits both widths as a table; each measure's figures
 * are the CSV's, and the chart beside it draws that measure alone, titled by it; a change's "(−63.89 % ▼)"
 * never breaks. A filtered report's sentence says its filter by the fields' names and its zone as a place's
 * time, and its chart's labels are never cut at its edge (result words). Each screen: axe finds nothing,
 * the page does not scroll sideways. Screenshots of the final screens: /work/review-result-words/ when it
 * exists, and test-output/screenshots.
 */
import { existsSync } from "node:fs";
import { parse } from "csv-parse/sync";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { dates } from "../../src/tools/ga/period-words.js";
import type { Browser } from "../helpers/browser.js";
import { pickChoice } from "../helpers/combobox.js";
import type { ConsoleFixture } from "../helpers/console.js";
import { expectPersonScreen } from "../helpers/person-screen.js";
import { daysAgo, reportForm } from "../helpers/report-form.js";
import { signedInConsole } from "../helpers/signed-in-console.js";

const REVIEW = "/work/review-result-words";

/** A cell's number as the page shows it ("$1,234.50", "12,345", "−3"), or NaN. */
const shownNumber = (text: string) => Number(text.replace(/\u2212/g, "-").replace(/[^\d.+-]/g, ""));

describe.each([1280, 400])("a comparison and a filtered chart at %i px", { timeout: 120_000 }, (width) => {
  let fixture: ConsoleFixture;
  let browser: Browser;
  let page: Page;
  signedInConsole({ width, timeout: 20_000 }, (signedIn) => {
    ({ fixture, browser, page } = signedIn);
  });
  const { results, table, runReportsFrom, runForRows, customPeriod, downloadCsv } = reportForm(
    () => page,
    () => fixture,
  );

  /** The screen as a person sees it, then its screenshot (kept for review too). */
  async function screen(name: string) {
    await expectPersonScreen(page, `${width}-${name}`);
    await browser.screenshot(`report-compare-${width}-${name}`);
    if (!existsSync(REVIEW)) return;
    await page.screenshot({ path: `${REVIEW}/compare-${width}-${name}.png`, fullPage: true });
    // The result alone too, at the page's own scale, to look at without the form above it.
    await results().screenshot({ path: `${REVIEW}/compare-${width}-${name}-result.png` });
  }

  const add = async (list: string, name: string) => {
    if ((await page.getByRole("combobox", { name, exact: true }).count()) === 0)
      await page.locator(`#${list}`).getByRole("button", { name: "Add", exact: true }).last().click();
  };

  /** The table's rows as text, cell by cell (the sort arrows left out of the header). */
  const tableText = async () => ({
    header: (await table().locator("thead th").allTextContents()).map((text) => text.replace(/ [▲▼]$/, "")),
    rows: await Promise.all(
      (await table().locator("tbody tr").all()).map((row) => row.locator("td, th").allTextContents()),
    ),
  });

  /** The table fits its box and the page: no sideways cue, no card per row. */
  async function fitsAsTable() {
    expect(await results().locator(".scroll-cue").count()).toBe(0);
    const [scrollWidth, clientWidth, head] = (await page.evaluate(
      `(() => { const box = document.querySelector(".results .table-wrap");
        return [box.scrollWidth, box.clientWidth, getComputedStyle(box.querySelector("thead")).display]; })()`,
    )) as [number, number, string];
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    expect(head).toBe("table-header-group");
  }

  /** The charts' titles, as their labels say them ("Chart: Sessions by …"). */
  const chartTitles = async () =>
    Promise.all(
      (
        await results()
          .getByRole("img", { name: /^Chart: / })
          .all()
      ).map((chart) => chart.getAttribute("aria-label")),
    );

  /** Each change cell's parenthesis, "(−63.89 % ▼)", on one line: the lines its text takes, cell by cell. */
  const percentLines = async () =>
    (await page.evaluate(`[...document.querySelectorAll(".results table tbody td")].flatMap((cell) => {
      const text = cell.firstChild;
      const at = (cell.textContent ?? "").indexOf(" (");
      if (!text || text.nodeType !== 3 || at < 0) return [];
      const range = document.createRange();
      range.setStart(text, at + 1);
      range.setEnd(text, text.textContent.length);
      const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
      return [{ text: cell.textContent, lines: tops.size }];
    })`)) as { text: string; lines: number }[];

  /** The ink in each chart's two leftmost pixel columns: a label cut at its edge leaves some. */
  const inkAtLeftEdge = async () =>
    (await page.evaluate(`[...document.querySelectorAll(".results .chart-canvas canvas")].map((canvas) => {
      const data = canvas.getContext("2d").getImageData(0, 0, 2, canvas.height).data;
      let ink = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) ink++;
      return ink;
    })`)) as number[];

  it("shows sessions, purchases and revenue by channel one measure at a time, each as the CSV has it", async () => {
    await runReportsFrom("Sessions by channel, last 28 days vs the 28 before", width);
    const thisWeek: [string, string] = [daysAgo(7), daysAgo(1)];
    const lastWeek: [string, string] = [daysAgo(14), daysAgo(8)];
    await customPeriod(0, ...thisWeek);
    await customPeriod(1, ...lastWeek);
    await add("root_metrics", "Metric 2");
    await pickChoice(page, "Metric 2", "Ecommerce purchases", /^Ecommerce purchases$/);
    await add("root_metrics", "Metric 3");
    await pickChoice(page, "Metric 3", "Purchase revenue", /^Purchase revenue$/);
    await runForRows(30_000);
    const [current, previous] = [dates(...thisWeek), dates(...lastWeek)];

    // The choice above the table, first measure chosen; the downloads keep them all, as it says.
    const show = results().getByRole("group", { name: "Show" });
    const radios = show.getByRole("radio");
    expect(await Promise.all((await radios.all()).map((radio) => radio.getAttribute("value")))).toEqual([
      "sessions",
      "ecommercePurchases",
      "purchaseRevenue",
    ]);
    expect(await show.getByRole("radio", { name: "Sessions", exact: true }).isChecked()).toBe(true);
    expect(await results().locator(".metric-choice").innerText()).toMatch(/CSV download has every measure/);
    const sessions = await tableText();
    expect(sessions.header).toEqual(["Session default channel group", current, previous, "Change"]);
    await fitsAsTable();

    // Every measure in the CSV, by channel: the table's figures are its own.
    const csv = parse(await downloadCsv(), { columns: true }) as Record<string, string>[];
    const byChannel = new Map(csv.map((row) => [row["Session default channel group"], row]));
    const column = (measure: string, period: string) => {
      const name = Object.keys(csv[0] ?? {}).find((key) => key.startsWith(measure) && key.endsWith(period));
      expect(name, `${measure}, ${period} in ${JSON.stringify(Object.keys(csv[0] ?? {}))}`).toBeDefined();
      return name as string;
    };
    const sameAsCsv = (rows: string[][], measure: string) => {
      expect(rows.length).toBeGreaterThan(0);
      for (const [channel, now, before, change] of rows) {
        const row = byChannel.get(channel ?? "");
        expect(row, `${channel} in the CSV`).toBeDefined();
        const [a, b] = [Number(row?.[column(measure, current)]), Number(row?.[column(measure, previous)])];
        expect(shownNumber(now ?? "")).toBeCloseTo(a, 1);
        expect(shownNumber(before ?? "")).toBeCloseTo(b, 1);
        // The change, and its % beside it when there is one.
        expect(shownNumber((change ?? "").split(" (")[0] ?? "")).toBeCloseTo(a - b, 1);
        if (b !== 0) expect(change).toMatch(/^\S+ \([+\u2212]?[\d,.]+\u00a0%(\u00a0[▲▼])?\)$/);
      }
    };
    sameAsCsv(sessions.rows, "Sessions");
    // The chart draws the measure the table shows, alone (result words 2).
    await expect.poll(chartTitles).toEqual(["Chart: Sessions by Session default channel group"]);
    await screen("01-sessions");

    // By keyboard, as the arrow keys move a radio group: Purchase revenue, two along.
    await show.getByRole("radio", { name: "Sessions", exact: true }).focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    expect(await show.getByRole("radio", { name: /^Purchase revenue/ }).isChecked()).toBe(true);
    await expect.poll(async () => (await tableText()).rows[0]?.[1]).toMatch(/^\$[\d,]+\.\d{2}$/);
    const revenue = await tableText();
    expect(revenue.header).toEqual(["Session default channel group", current, previous, "Change"]);
    expect(revenue.rows.length).toBe(sessions.rows.length);
    sameAsCsv(revenue.rows, "Purchase revenue");
    await fitsAsTable();
    await expect.poll(chartTitles).toEqual(["Chart: Purchase revenue by Session default channel group"]);
    // "−$1,973.00 (−63.89 % ▼)": the parenthesis on one line, the arrow never alone (result words 3).
    const percents = await percentLines();
    expect(percents.length).toBeGreaterThan(0);
    expect(percents.filter((cell) => cell.lines !== 1)).toEqual([]);
    await screen("02-revenue");

    await show.getByRole("radio", { name: "Ecommerce purchases" }).click();
    await expect.poll(async () => (await tableText()).rows[0]?.[1]).not.toMatch(/^\$/);
    sameAsCsv((await tableText()).rows, "Ecommerce purchases");
    await fitsAsTable();
    await expect.poll(chartTitles).toEqual(["Chart: Ecommerce purchases by Session default channel group"]);
    await results()
      .getByRole("img", { name: /^Chart: / })
      .scrollIntoViewIfNeeded();
    await screen("03-purchases-chart");
  });

  it("says a filtered report's filter and zone in words, and titles its chart with them, labels whole", async () => {
    await page.goto(fixture.console.loginUrl(fixture.base));
    await page.getByLabel("Search tool steps").fill("analytics");
    await page.getByRole("button", { name: /^Run Reports/ }).click();
    await page.getByLabel("Google account").selectOption("sandbox");
    await expect.poll(() => page.getByLabel("Property").inputValue()).toMatch(/^\d+$/);
    await page.waitForLoadState("networkidle");
    await add("root_metrics", "Metric 1");
    await pickChoice(page, "Metric 1", "Total users", /^Total users$/);
    await add("root_metrics", "Metric 2");
    await pickChoice(page, "Metric 2", "Sessions", /^Sessions$/);
    await add("root_dimensions", "Dimension 1");
    await pickChoice(page, "Dimension 1", "Landing page", /^Landing page$/);
    await page.getByLabel("Filter").fill("Device category = mobile and Country = United States");
    await runForRows(30_000);
    const chart = results().getByRole("img", { name: /^Chart: / });
    await expect
      .poll(() => chart.first().getAttribute("aria-label"))
      .toBe(
        "Chart: Total users, Sessions by Landing page — only where Device category = mobile and Country = United States",
      );
    // The sentence in the same words, its zone as a place's time: no API name on the page (result words 1).
    const sentence = (await results().locator(".summary").textContent()) ?? "";
    expect(sentence).toMatch(
      /^Report on Retail Web Store \(\d+\) for .+, dates in New York time, only where Device category = mobile and Country = United States: /,
    );
    expect(sentence).not.toMatch(/deviceCategory|country =|America\/|"/);
    // Every landing page's label whole or ended with "…", never cut at the chart's edge (result words 4).
    expect(await inkAtLeftEdge()).toEqual([0]);
    await chart.first().scrollIntoViewIfNeeded();
    await screen("04-filtered-chart");
  });
});
