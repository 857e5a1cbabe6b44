/**
 * Run Reports' technical options under one closed "More options" (newcomer trial 2026-12-03-s9, finding
 * 8: Realtime, Minute ranges, the PNG image and Rows to skip showed on every form), in headless Chromium at
 * 1280 and 400 px: closed at first, opened by a click, and kept open while one of them holds a value. axe
 * finds nothing serious and the page does not scroll sideways on each screen.
 * Screenshots: test-output/screenshots/more-options-<width>-<screen>.png.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { Browser } from "../helpers/browser.js";
import { expectPersonScreen } from "../helpers/person-screen.js";
import { signedInConsole } from "../helpers/signed-in-console.js";

const TECHNICAL = ["Realtime (last 30 minutes)", "Also send the chart as a PNG image", "Rows to skip"];

describe.each([1280, 400])("Run Reports' More options at %i px", { timeout: 60_000 }, (width) => {
  let browser: Browser;
  let page: Page;
  signedInConsole({ width, timeout: 15_000 }, (signedIn) => {
    ({ browser, page } = signedIn);
  });

  const check = async (screen: string) => {
    await expectPersonScreen(page, screen);
    await browser.screenshot(`more-options-${width}-${screen}`);
  };
  const visible = (label: string) => page.getByLabel(label, { exact: true }).isVisible();

  it("keeps the technical options closed under More options until asked for", async () => {
    await page.getByLabel("Search tool steps").fill("analytics");
    await page.getByRole("button", { name: /^Run Reports/ }).click();
    await page.getByRole("button", { name: "Run", exact: true }).waitFor();
    await expect.poll(() => page.getByLabel("Property").inputValue()).toMatch(/^\d+$/);
    const more = page.locator(".runner details.more-options");
    expect(await more.getAttribute("open")).toBeNull();
    for (const label of TECHNICAL)
      expect({ label, shown: await visible(label) }).toEqual({ label, shown: false });
    expect(await page.locator(".runner form").innerText()).not.toMatch(
      /PNG|Realtime|Minute ranges|Rows to skip/,
    );
    // The fields a marketer fills stay in view.
    expect(await page.getByLabel("Most rows", { exact: true }).isVisible()).toBe(true);
    await check("01-closed");

    await more.getByText("More options", { exact: true }).click();
    for (const label of TECHNICAL)
      expect({ label, shown: await visible(label) }).toEqual({ label, shown: true });
    await check("02-open");
  });

  it("stays open while one of them holds a value, so nothing set is hidden", async () => {
    const more = page.locator(".runner details.more-options");
    const summary = more.getByText("More options", { exact: true });
    await page.getByLabel("Realtime (last 30 minutes)", { exact: true }).check();
    await summary.click();
    expect(await more.getAttribute("open")).not.toBeNull();
    expect(await visible("Realtime (last 30 minutes)")).toBe(true);
    // Back to its default, it closes again on a click.
    await page.getByLabel("Realtime (last 30 minutes)", { exact: true }).uncheck();
    await summary.click();
    await expect.poll(() => more.getAttribute("open")).toBeNull();
  });
});
