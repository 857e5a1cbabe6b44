/**
 * The tool-step bar as a marketer types into it (trial s13, finding 1): a word typed in part, several words,
 * and the words of a goal each offer the right form first; "send email" and "lead score" no longer offer only
 * the raw REST step, and "landing", "mobile", "drop off", "beta testers" and "integrations" no longer say
 * "No tool step matches.". In headless Chromium at 1280 and 400 px, typed key by key as a person does.
 * Screenshots: test-output/screenshots/step-search-<width>-*.png.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { Browser } from "../helpers/browser.js";
import { expectPersonScreen } from "../helpers/person-screen.js";
import { signedInConsole } from "../helpers/signed-in-console.js";

/** Each phrase of the trial, and the form the bar should offer first for it. */
const FIRST: readonly [string, string][] = [
  ["send", "Trigger a smart campaign"],
  ["send email", "Trigger a smart campaign"],
  ["welcome email", "Trigger a smart campaign"],
  ["lead score", "Export leads or activities"],
  ["warm leads", "Export leads or activities"],
  ["landing", "Run Reports"],
  ["landing p", "Run Reports"],
  ["mobile", "Run Reports"],
  ["drop off", "Run Reports"],
  ["beta testers", "Add or remove leads on a list"],
];

describe.each([1280, 400])("the step search at %i px", { timeout: 120_000 }, (width) => {
  let page: Page;
  let browser: Browser;
  signedInConsole({ width, timeout: 20_000 }, (signedIn) => {
    ({ page, browser } = signedIn);
  });

  const hits = () => page.locator(".search .hits .hit");
  const none = () => page.locator(".search .none");

  /** Types the query key by key into an empty box, and waits for the bar's answer to the whole of it. */
  async function type(query: string): Promise<void> {
    const box = page.getByLabel("Search tool steps");
    await box.fill("");
    const answered = page.waitForResponse((response) =>
      response.url().endsWith(`/console/api/steps?q=${encodeURIComponent(query)}`),
    );
    await box.pressSequentially(query, { delay: 40 });
    await answered;
  }

  it("says it is loading, not that no step matches, until the steps come (console review s14, finding 13)", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const firstList = /\/console\/api\/steps\?q=$/;
    await page.route(firstList, async (route) => {
      await held;
      await route.continue();
    });
    try {
      await page.reload();
      await expect.poll(() => none().textContent()).toBe("Loading the tool steps…");
      expect(await page.getByText("No tool step matches.").count()).toBe(0);
      release();
      await expect.poll(() => hits().count()).toBeGreaterThan(0);
      expect(await none().count()).toBe(0);
    } finally {
      release();
      await page.unroute(firstList);
    }
  });

  it.each(FIRST)("typing %j offers %s first", async (query, title) => {
    await type(query);
    await expect.poll(() => hits().first().locator(".hit-title").textContent()).toBe(title);
    expect(await none().count()).toBe(0);
  });

  it("fills Run Reports by a landing page typed in part", async () => {
    await type("landing p");
    await expect
      .poll(() => hits().first().locator(".hit-reason").textContent())
      .toBe("Run Reports: A measure by Landing page");
    await expectPersonScreen(page, `step-search ${width} landing p`);
    await browser.screenshot(`step-search-${width}-01-landing-p`);
  });

  it("says a list's name may be picked in the list forms, and opens one", async () => {
    await type("beta testers");
    const card = page.getByRole("region", { name: '"beta testers" may be a name' });
    await expect.poll(() => card.locator("p").textContent()).toMatch(/one of your lists or campaigns/);
    await expectPersonScreen(page, `step-search ${width} beta testers`);
    await browser.screenshot(`step-search-${width}-02-beta-testers`);
    await hits().first().click();
    await page.getByRole("region", { name: "Add or remove leads on a list" }).waitFor();
  });

  it("leads from integrations to the Integrations page", async () => {
    await type("integrations");
    const link = page.getByRole("link", { name: "Open Integrations" });
    await link.waitFor();
    expect(await none().count()).toBe(0);
    await expectPersonScreen(page, `step-search ${width} integrations`);
    await browser.screenshot(`step-search-${width}-03-integrations`);
    await link.click();
    await page.getByRole("heading", { level: 1, name: "Integrations" }).waitFor();
    await page.goto(page.url().replace(/#.*$/, "#/"));
  });
});
