/**
 * Results at 400 px and in charts, in headless Chromium at 1280 and 400 px (newcomer trial s9, finding 11):
 * a comparison shows its change with no sideways scrolling (a table of one measure at both widths: console
 * review s10, finding 3), an export's lead rows hold no empty space, and a report of purchases and revenue draws one chart per unit. Each screen: axe finds nothing, the page does not
 * scroll sideways. Screenshots: test-output/screenshots/narrow-results-<width>-<screen>.png.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations } from "../helpers/axe.js";
import type { Browser } from "../helpers/browser.js";
import { pickChoice } from "../helpers/combobox.js";
import type { ConsoleFixture } from "../helpers/console.js";
import { setLeadFields } from "../helpers/lead-field-picks.js";
import { reportForm } from "../helpers/report-form.js";
import { signedInConsole } from "../helpers/signed-in-console.js";

describe.each([1280, 400])("results at %i px", { timeout: 90_000 }, (width) => {
  let fixture: ConsoleFixture;
  let browser: Browser;
  let page: Page;
  signedInConsole({ width, timeout: 20_000 }, (signedIn) => {
    ({ fixture, browser, page } = signedIn);
  });
  const { table, runComparison, runForRows } = reportForm(
    () => page,
    () => fixture,
  );

  /** No serious axe violation and no sideways page scroll; then the screenshot. */
  async function check(screen: string) {
    await page.waitForLoadState("networkidle");
    expect({ screen, violations: await axeViolations(page) }).toEqual({ screen, violations: [] });
    const over = (await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")) as number;
    expect({ screen, over }).toEqual({ screen, over: Math.min(over, 0) });
    await browser.screenshot(`narrow-results-${width}-${screen}`);
  }

  it("shows a comparison's change in view as a table, not scrolled sideways nor in cards", async () => {
    await runComparison(width);
    const wrap = page.getByRole("region", { name: "Records (table)" });
    const view = await wrap.boundingBox();
    // The change, in the first row: wholly inside the table's box as the page opens.
    const change = table().locator('tbody tr:first-child td[data-label="Change"]');
    const cell = await change.boundingBox();
    expect(cell && view && cell.x >= view.x - 1 && cell.x + cell.width <= view.x + view.width + 1).toBe(true);
    const [scrollWidth, clientWidth] = (await page.evaluate(
      `(() => { const box = document.querySelector(".results .table-wrap"); return [box.scrollWidth, box.clientWidth]; })()`,
    )) as [number, number];
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    expect(await page.locator(".results .scroll-cue").count()).toBe(0);
    // A table at both widths: its header above the columns, no card per row (console review s10, finding 3).
    expect(await page.evaluate(`getComputedStyle(document.querySelector(".results thead")).display`)).toBe(
      "table-header-group",
    );
    await check("01-comparison");
  });

  it("draws purchases and revenue as two charts, each titled by its metric", async () => {
    await page.goto(fixture.console.loginUrl(fixture.base));
    await page.getByLabel("Search tool steps").fill("analytics");
    await page.getByRole("button", { name: /^Run Reports/ }).click();
    await page.getByLabel("Google account").selectOption("sandbox");
    await expect.poll(() => page.getByLabel("Property").inputValue()).toMatch(/^\d+$/);
    await page.waitForLoadState("networkidle");
    const add = async (list: string, name: string) => {
      if ((await page.getByRole("combobox", { name, exact: true }).count()) === 0)
        await page.locator(`#${list}`).getByRole("button", { name: "Add", exact: true }).last().click();
    };
    await add("root_metrics", "Metric 1");
    await pickChoice(page, "Metric 1", "Ecommerce purchases", /^Ecommerce purchases$/);
    await add("root_metrics", "Metric 2");
    await pickChoice(page, "Metric 2", "Purchase revenue", /^Purchase revenue$/);
    await add("root_dimensions", "Dimension 1");
    await pickChoice(page, "Dimension 1", "Country", /^Country$/);
    await runForRows(30_000);
    const charts = page.getByRole("img", { name: /^Chart: / });
    await expect.poll(() => charts.count()).toBe(2);
    expect(await Promise.all((await charts.all()).map((chart) => chart.getAttribute("aria-label")))).toEqual([
      "Chart: Ecommerce purchases by Country",
      "Chart: Purchase revenue by Country",
    ]);
    await check("02-two-units");
  });

  it("shows an export's lead rows with no empty space beside a value", async () => {
    await page.goto(fixture.console.loginUrl(fixture.base));
    await page.getByLabel("Search tool steps").fill("export leads");
    await page
      .getByRole("list", { name: "Tasks" })
      .getByRole("button", { name: /^Export leads or activities/ })
      .click();
    await setLeadFields(page, ["First Name", "Last Name", "Email Address", "Country", "Lead Score"]);
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect
      .poll(() => page.locator(".results .summary").textContent(), { timeout: 60_000 })
      .toMatch(/^Export ready: [1-9][\d,]* leads/);
    // Each cell's height against its own text's: a row as tall as its longest value left the others with
    // lines of nothing beside them (trial s9, finding 11, at 400 px).
    const gaps =
      (await page.evaluate(`[...document.querySelectorAll(".results tbody tr:nth-child(-n+3) td")].map((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      const padding = Number.parseFloat(getComputedStyle(cell).paddingTop) * 2;
      return Math.round(cell.getBoundingClientRect().height - padding - range.getBoundingClientRect().height);
    })`)) as number[];
    expect(gaps.length).toBeGreaterThan(0);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(4);
    await check("03-export");
  });
});
