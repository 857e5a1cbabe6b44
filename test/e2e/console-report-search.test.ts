/**
 * The tool-step bar's line for a report found by its own words ("Run Reports: Purchase revenue by Country")
 * is a shortcut: a click on the hit, or on the line itself, opens Run Reports with those metrics and
 * dimensions filled in, as an example's button does (newcomer trial 2026-12-03-s9, finding 1: an empty form).
 * Headless Chromium at 1280 and 400 px.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { Browser } from "../helpers/browser.js";
import type { ConsoleFixture } from "../helpers/console.js";
import { reportForm } from "../helpers/report-form.js";
import { signedInConsole } from "../helpers/signed-in-console.js";

const WIDTHS = [1280, 400] as const;

describe("Run Reports from the search's words", () => {
  let fixture: ConsoleFixture;
  let browser: Browser;
  let page: Page;

  signedInConsole({ timeout: 15_000 }, (signedIn) => {
    ({ fixture, browser, page } = signedIn);
  });

  const { table, runForRows } = reportForm(
    () => page,
    () => fixture,
  );
  const box = (name: string) => page.getByRole("combobox", { name, exact: true });

  /** Searches `query` at `width` and clicks the report's hit: its line itself, or the hit's title. */
  async function openFromSearch(query: string, width: number, on: "line" | "title") {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(fixture.console.loginUrl(fixture.base));
    await page.getByLabel("Search tool steps").fill(query);
    const hit = page
      .getByRole("list", { name: "Search results" })
      .getByRole("button", { name: /^Run Reports/ });
    await hit.locator(".hit-reason").waitFor();
    await (on === "line" ? hit.locator(".hit-reason") : hit.locator(".hit-title")).click();
    await page.getByRole("region", { name: "Run Reports" }).waitFor();
    await expect.poll(() => page.getByLabel("Property").inputValue()).toMatch(/^\d+$/);
    await page.waitForLoadState("networkidle");
  }

  it.each(WIDTHS)(
    "fills Purchase revenue by Country from its line, and runs it, at %i px",
    async (width) => {
      await openFromSearch("sales by country", width, "line");
      await expect.poll(() => box("Metric 1").inputValue()).toBe("Purchase revenue");
      expect(await box("Dimension 1").inputValue()).toBe("Country");
      expect(await page.getByRole("region", { name: "Examples" }).innerText()).toContain(
        "Filled from your search: Purchase revenue by Country.",
      );
      await runForRows(30_000);
      const header = await table().locator("thead th").allTextContents();
      expect(header.map((text) => text.replace(/ [▲▼]$/, ""))).toEqual(
        expect.arrayContaining(["Country", "Purchase revenue (USD)"]),
      );
      await browser.screenshot(`report-search-sales-by-country-${width}`);
    },
    60_000,
  );

  it.each(WIDTHS)(
    "fills Sessions by Session default channel group from the hit's title at %i px",
    async (width) => {
      await openFromSearch("sessions by channel", width, "title");
      await expect.poll(() => box("Metric 1").inputValue()).toBe("Sessions");
      expect(await box("Dimension 1").inputValue()).toBe("Session default channel group");
      // The account and property the pickers chose stay.
      expect(await page.getByLabel("Google account").inputValue()).not.toBe("");
    },
  );

  it("opens the empty form from a hit the step's own words found", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(fixture.console.loginUrl(fixture.base));
    await page.getByLabel("Search tool steps").fill("report");
    await page
      .getByRole("list", { name: "Search results" })
      .getByRole("button", { name: /^Run Reports/ })
      .click();
    await expect.poll(() => page.getByLabel("Property").inputValue()).toMatch(/^\d+$/);
    expect(await box("Metric 1").count()).toBe(0);
  });
});
