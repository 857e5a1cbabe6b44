/**
 * The console's screens for everyone, in headless Chromium: axe-core finds no serious or critical
 * violation on any screen (login, the tool steps with each step's form, a result, the integrations),
 * each screen has one h1, and at 400 px the page does not scroll sideways (the header wraps, the
 * columns stack). Screenshots go to test-output/screenshots.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOL_STEPS } from "../../src/tools/registry.js";
import { axeViolations } from "../helpers/axe.js";
import { type Browser, launchBrowser } from "../helpers/browser.js";
import { type ConsoleFixture, startConsoleFixture } from "../helpers/console.js";

describe("the console for everyone", () => {
  let fixture: ConsoleFixture;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    fixture = await startConsoleFixture();
    browser = await launchBrowser();
    page = browser.page;
    page.setDefaultTimeout(10_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
  });

  const h1s = () => page.locator("h1").allTextContents();
  const sideways = () =>
    page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");

  it("finds a violation when there is one (the check can fail)", async () => {
    await page.goto(fixture.base);
    await page.getByRole("heading", { name: "Login required" }).waitFor();
    await page.evaluate(`document.body.append(document.createElement("button"))`);
    expect((await axeViolations(page)).map((violation) => violation.id)).toContain("button-name");
  });

  it("has no serious violation on the login screen, and one h1", async () => {
    await page.goto(fixture.base);
    await page.getByRole("heading", { name: "Login required" }).waitFor();
    expect(await h1s()).toEqual(["Login required"]);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("has no serious violation on the tool steps screen and on each step's form", async () => {
    await page.goto(fixture.console.loginUrl(fixture.base));
    await page.locator(".workspace").waitFor();
    expect(await h1s()).toEqual(["Tool steps"]);
    expect(await axeViolations(page)).toEqual([]);
    for (const step of TOOL_STEPS) {
      await page.getByLabel("Search tool steps").fill("");
      await page.getByRole("button", { name: new RegExp(`^${step.title}`) }).click();
      await page.getByRole("button", { name: "Run", exact: true }).waitFor();
      // The pickers have read their lists (a select with choices, or the text box it falls back to).
      await page.waitForLoadState("networkidle");
      expect({ step: step.id, violations: await axeViolations(page) }).toEqual({
        step: step.id,
        violations: [],
      });
    }
    await browser.screenshot("a11y-01-step-form");
  });

  it("has no serious violation on a result", async () => {
    await page.getByLabel("Search tool steps").fill("marketing automation");
    await page.getByRole("button", { name: /Marketo API Call/ }).click();
    await page.getByRole("button", { name: "Look up a lead by email" }).click();
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.locator(".results .summary").waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });

  it("has no serious violation on the integrations screen, and one h1", async () => {
    await page.getByRole("link", { name: "Integrations" }).click();
    await page.getByRole("heading", { name: "Integrations", level: 1 }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(await h1s()).toEqual(["Integrations"]);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("reaches every control of the tool steps screen with the Tab key", async () => {
    await page.getByRole("link", { name: "Tool steps" }).click();
    await page.getByLabel("Search tool steps").fill("marketing automation");
    await page.getByRole("button", { name: /Marketo API Call/ }).click();
    await page.getByRole("button", { name: "Look up a lead by email" }).click();
    // Every visible, enabled control gets a mark; Tab from the top of the page must land on each.
    const controls = (await page.evaluate(`(() => {
      const all = [...document.querySelectorAll("a[href], button, input, select, textarea, summary")]
        .filter((e) => !e.disabled && e.getClientRects().length > 0);
      all.forEach((e, i) => e.setAttribute("data-control", String(i)));
      return all.map((e) => e.getAttribute("aria-label") || e.id || e.textContent.trim().slice(0, 40));
    })()`)) as string[];
    expect(controls.length).toBeGreaterThan(20);
    await page.evaluate("document.activeElement && document.activeElement.blur()");
    const reached = new Set<string>();
    for (let i = 0; i < controls.length * 2 && reached.size < controls.length; i += 1) {
      await page.keyboard.press("Tab");
      const mark = (await page.evaluate(
        `document.activeElement && document.activeElement.getAttribute("data-control")`,
      )) as string | null;
      if (mark !== null) reached.add(mark);
    }
    const missed = controls.filter((_, i) => !reached.has(String(i)));
    expect(missed).toEqual([]);
  });

  it("does not scroll sideways at 400 px: the header wraps and the columns stack", async () => {
    await page.setViewportSize({ width: 400, height: 800 });
    // The Marketo form with its result, then the integrations, then the report form.
    expect(await sideways()).toBe(0);
    await page.getByRole("link", { name: "Integrations" }).click();
    await page.getByRole("heading", { name: "Integrations", level: 1 }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(await sideways()).toBe(0);
    // The cards' status chips and property lists (trial s5, finding 8) pass axe on a phone too.
    await expect.poll(() => page.getByTestId("status-chip").count()).toBeGreaterThan(1);
    expect(await axeViolations(page)).toEqual([]);
    await browser.screenshot("a11y-02-integrations-400px");
    await page.getByRole("link", { name: "Tool steps" }).click();
    await page.getByLabel("Search tool steps").fill("analytics");
    await page.getByRole("button", { name: /^Run Reports/ }).click();
    await page.getByRole("button", { name: "Run", exact: true }).waitFor();
    expect(await sideways()).toBe(0);
    const search = await page.locator(".search").boundingBox();
    const runner = await page.locator("section.runner").boundingBox();
    // Stacked: the form starts below the search, not beside it.
    expect(runner?.y ?? 0).toBeGreaterThanOrEqual((search?.y ?? 0) + (search?.height ?? 0));
    await browser.screenshot("a11y-03-run-reports-400px");
    await page.setViewportSize({ width: 1360, height: 900 });
  });
});
