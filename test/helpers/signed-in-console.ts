import type { Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { type Browser, launchBrowser } from "./browser.js";
import { type ConsoleFixture, startConsoleFixture } from "./console.js";

/** What a console e2e file works with once signed in. */
export interface SignedInConsole {
  fixture: ConsoleFixture;
  browser: Browser;
  page: Page;
}

/**
 * The set-up most console e2e files share: before the file's tests, the console over both sandboxes, a
 * browser at `width` × `height` (the browser's default when no width), signed in by the one-time link; after
 * them, both closed. `ready` receives them for the file's own variables.
 */
export function signedInConsole(
  options: { width?: number; height?: number; timeout: number },
  ready: (signedIn: SignedInConsole) => void,
): void {
  let fixture: ConsoleFixture | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    fixture = await startConsoleFixture();
    browser = await launchBrowser();
    const page = browser.page;
    page.setDefaultTimeout(options.timeout);
    if (options.width !== undefined)
      await page.setViewportSize({ width: options.width, height: options.height ?? 900 });
    await page.goto(fixture.console.loginUrl(fixture.base));
    await page.locator(".workspace").waitFor();
    ready({ fixture, browser, page });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
  });
}
