/**
 * Run Reports in a marketer's words, in headless Chromium at 1280 and 400 px (newcomer trial
 * 2026-12-02-s5, findings 4–7 and 11): the tool-step search box's words fit, and axe finds nothing on
 * the screens it checks.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations } from "../helpers/axe.js";
import { type Browser, launchBrowser } from "../helpers/browser.js";
import { type ConsoleFixture, startConsoleFixture } from "../helpers/console.js";
import { cutTextBoxes } from "../helpers/cut-text.js";

const WIDTHS = [1280, 400] as const;

describe("Run Reports in a marketer's words", () => {
  let fixture: ConsoleFixture;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    fixture = await startConsoleFixture();
    browser = await launchBrowser();
    page = browser.page;
    page.setDefaultTimeout(15_000);
    await page.goto(fixture.console.loginUrl(fixture.base));
    await page.locator(".workspace").waitFor();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
  });

  it("finds a placeholder cut off when there is one (the check can fail)", async () => {
    await page.setViewportSize({ width: 400, height: 800 });
    await page.evaluate(`document.getElementById("step-search").placeholder = "x".repeat(200)`);
    expect((await cutTextBoxes(page)).map((cut) => cut.id)).toContain("step-search");
    await page.reload();
    await page.locator(".workspace").waitFor();
  });

  it.each(WIDTHS)("shows the tool-step search box's words whole at %i px", async (width) => {
    await page.setViewportSize({ width, height: 900 });
    await page.getByLabel("Search tool steps").waitFor();
    const search = async () => (await cutTextBoxes(page)).filter((cut) => cut.id === "step-search");
    expect(await search()).toEqual([]);
    await page.getByLabel("Search tool steps").fill("analytics");
    await page.getByRole("button", { name: /^Run Reports/ }).click();
    await page.getByRole("button", { name: "Run", exact: true }).waitFor();
    expect(await search()).toEqual([]);
    await page.getByLabel("Search tool steps").fill("");
  });
});
