/**
 * The funnel chart's labels read whole, in headless Chromium at 1280 and 400 px (console review s13,
 * finding 3: at 400 px "1. View item (view_item): 5" and "…(add_to_cart): 147" ran off the chart's right
 * edge, their counts unread; finding 10: the chart wrote "5824" where the table wrote "5,824", and the CSV was
 * "rows-….csv"). Every text the chart draws on its canvas is recorded with where it lands (the canvas's own
 * measurement of it, in the font and alignment it is drawn with): none may cross the canvas's edges, and the
 * labels say each step by its GA4 name with the table's count. Each screen: axe finds nothing, the page does
 * not scroll sideways.
 */

import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { type Browser, SCREENSHOTS } from "../helpers/browser.js";
import type { ConsoleFixture } from "../helpers/console.js";
import { expectPersonScreen } from "../helpers/person-screen.js";
import { reportForm } from "../helpers/report-form.js";
import { signedInConsole } from "../helpers/signed-in-console.js";

/** A text the page drew on a canvas: its left and right ends and the canvas's width, in device pixels. */
interface Drawn {
  text: string;
  left: number;
  right: number;
  width: number;
}

/**
 * Records every fillText on a canvas inside a chart, with its ends as the canvas measures them: the
 * alignment point less the text's left extent, plus its right one (TextMetrics.actualBoundingBox*, which
 * count from the point textAlign sets), through the context's transform (ECharts scales by the pixel ratio).
 */
const RECORD_TEXTS = `(() => {
  window.chartTexts = [];
  const fill = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, x, y, ...rest) {
    if (this.canvas.closest && this.canvas.closest(".chart-canvas")) {
      const metrics = this.measureText(String(text));
      const t = this.getTransform();
      window.chartTexts.push({
        text: String(text),
        left: (x - metrics.actualBoundingBoxLeft) * t.a + t.e,
        right: (x + metrics.actualBoundingBoxRight) * t.a + t.e,
        width: this.canvas.width,
      });
    }
    return fill.call(this, text, x, y, ...rest);
  };
})()`;

describe.each([1280, 400])("the funnel chart at %i px", { timeout: 120_000 }, (width) => {
  let fixture: ConsoleFixture;
  let browser: Browser;
  let page: Page;
  signedInConsole({ width, timeout: 20_000 }, (signedIn) => {
    ({ fixture, browser, page } = signedIn);
  });
  const { results, table, runReportsFrom, runForRows } = reportForm(
    () => page,
    () => fixture,
  );

  /** The table's Step and Users cells, row by row. */
  const stepsAndUsers = async () => {
    const header = (await table().locator("thead th").allTextContents()).map((text) =>
      text.replace(/ [▲▼]$/, ""),
    );
    const [step, users] = [header.indexOf("Step"), header.indexOf("Users")];
    expect(step, JSON.stringify(header)).toBeGreaterThanOrEqual(0);
    expect(users, JSON.stringify(header)).toBeGreaterThanOrEqual(0);
    const rows = await Promise.all(
      (await table().locator("tbody tr").all()).map((row) => row.locator("td, th").allTextContents()),
    );
    return rows.map((cells) => ({ step: cells[step] ?? "", users: cells[users] ?? "" }));
  };

  it("labels each step whole, by its name, with the table's count, and names the CSV after the funnel", async () => {
    await page.addInitScript(RECORD_TEXTS);
    await runReportsFrom("Active users per day, last 28 days", width);
    await page.getByRole("checkbox", { name: "Funnel" }).check();
    const steps = [
      ["session", "Session start (session_start)"],
      ["view_it", "View item (view_item)"],
      ["cart", "Add to cart (add_to_cart)"],
      ["Purchase", "Purchase (purchase)"],
    ] as const;
    for (const [index, [typed, words]] of steps.entries()) {
      if (index >= 2)
        await page
          .locator("#root_funnel_steps")
          .getByRole("button", { name: "Add", exact: true })
          .last()
          .click();
      const box = page.getByRole("combobox", { name: `Step ${index + 1}`, exact: true });
      await box.fill(typed);
      const named = words.replace(/[()]/g, "\\$&");
      await page.getByRole("option", { name: new RegExp(`^${named} [\\d,]+ events$`) }).click();
      await expect.poll(() => box.inputValue()).toBe(words);
    }
    await page.evaluate("window.chartTexts = []");
    await runForRows(30_000);
    await expect.poll(() => results().locator("figure.chart").getAttribute("data-kind")).toBe("funnel");
    const rows = await stepsAndUsers();
    expect(rows.map((row) => row.step)).toEqual(steps.map(([, words]) => words));
    // The labels as the chart draws them: "1. Session start" then "5,824", its name without the code, its
    // count as the table writes it (the lines joined again).
    const labels = (shown: Drawn[]) => shown.map((one) => one.text).join(" ");
    await expect
      .poll(async () => labels((await page.evaluate("window.chartTexts")) as Drawn[]))
      .toContain(`4. Purchase`);
    const drawn = (await page.evaluate("window.chartTexts")) as Drawn[];
    for (const [index, row] of rows.entries()) {
      const name = row.step.replace(/ \([a-z_]+\)$/, "");
      expect(labels(drawn)).toContain(`${index + 1}. ${name} ${row.users}`);
    }
    expect(labels(drawn)).not.toMatch(/\(session_start\)|\(view_item\)|\(add_to_cart\)/);
    // None crosses the canvas's edges (one device pixel of anti-aliasing allowed).
    const cut = drawn.filter((one) => one.left < -1 || one.right > one.width + 1);
    expect(cut).toEqual([]);
    await expectPersonScreen(page, `funnel-chart-${width}`);
    await browser.screenshot(`funnel-chart-${width}`);
    // The chart alone, to look at its labels at the page's own scale.
    await results()
      .locator("figure.chart")
      .screenshot({ path: join(SCREENSHOTS, `funnel-chart-${width}-chart.png`) });
    // The CSV is named after the funnel and its dates.
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      results().getByRole("link", { name: "Download CSV" }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(
      /^funnel-session-start-to-purchase-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d\.csv$/,
    );
    await file.delete();
  });
});
