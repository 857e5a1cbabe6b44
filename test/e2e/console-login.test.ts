/**
 * The console's login in headless Chromium: no page without the printed link, a used link says how to
 * get a new one, and the link leaves the address bar and sets a cookie scripts cannot read.
 * The page runs under its real CSP, and every response it receives is searched for the configuration's
 * secrets (test/helpers/console-session.ts).
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "../helpers/browser.js";
import type { ConsoleFixture } from "../helpers/console.js";
import { rawRequest } from "../helpers/console.js";
import {
  type ConsoleSession,
  closeConsoleSession,
  expectNoCspViolation,
  expectNoSecretSent,
  openConsoleSession,
} from "../helpers/console-session.js";

describe("the console's login in a browser", () => {
  let session: ConsoleSession;
  let fixture: ConsoleFixture;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    session = await openConsoleSession({ login: false });
    ({ fixture, browser, page } = session);
  }, 60_000);

  afterAll(() => closeConsoleSession(session));

  it("asks for a login without the printed link", async () => {
    await page.goto(fixture.base);
    await expect.poll(() => page.getByRole("heading", { name: "Login required" }).isVisible()).toBe(true);
    await browser.screenshot("01-login-required");
  });

  it("says how to get a new link when a used one is opened again", async () => {
    const link = fixture.console.loginUrl(fixture.base);
    // Spent elsewhere (a link preview, another browser): this browser gets no session from it.
    expect(
      (await rawRequest(fixture.base, "GET", new URL(link).pathname + new URL(link).search)).status,
    ).toBe(303);
    await page.goto(link);
    await page.waitForURL(`${fixture.base}/#/login-link-used`);
    await expect
      .poll(() => page.locator(".error").first().textContent())
      .toMatch(/already used.*martech-steps console-link.*npm run console-link.*server keeps running/);
    await browser.screenshot("01-login-link-used");
  });

  it("logs in with the printed link, which leaves the address bar and cannot be read by scripts", async () => {
    await page.goto(fixture.console.loginUrl(fixture.base));
    await page.locator(".workspace").waitFor();
    expect(page.url()).toBe(`${fixture.base}/`);
    expect(await page.evaluate("document.cookie")).toBe("");
  });

  it("ran every screen without a single Content-Security-Policy violation (no eval, no inline script)", () =>
    expectNoCspViolation(session));

  it("never sent a secret to the browser", () => expectNoSecretSent(session, 3));
});
