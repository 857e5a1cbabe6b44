/**
 * A console session in headless Chromium for the console's e2e files: a fresh console fixture and
 * browser, every response body recorded (to search for the configuration's secrets) and every
 * Content-Security-Policy message the page logs; logged in with the printed link unless asked not to.
 * The checks each file ends with: no CSP violation on any screen it ran, no secret sent to the browser.
 */
import type { Page, Response } from "playwright-core";
import { expect } from "vitest";
import { type Browser, launchBrowser } from "./browser.js";
import { type ConsoleFixture, startConsoleFixture } from "./console.js";
import { allowStderr } from "./stderr.js";

export interface ConsoleSession {
  fixture: ConsoleFixture;
  browser: Browser;
  page: Page;
  bodies: Promise<{ url: string; status: number; text: string }>[];
  cspConsole: string[];
}

export async function openConsoleSession(options: { login?: boolean } = {}): Promise<ConsoleSession> {
  const fixture = await startConsoleFixture();
  const browser = await launchBrowser();
  const page = browser.page;
  const session: ConsoleSession = { fixture, browser, page, bodies: [], cspConsole: [] };
  page.setDefaultTimeout(10_000);
  page.on("response", (response: Response) => {
    session.bodies.push(
      response.text().then(
        (text) => ({ url: response.url(), status: response.status(), text }),
        () => ({ url: response.url(), status: response.status(), text: "" }),
      ),
    );
  });
  page.on("console", (message) => {
    if (/Content.Security.Policy/i.test(message.text())) session.cspConsole.push(message.text());
  });
  if (options.login !== false) {
    await page.goto(fixture.console.loginUrl(fixture.base));
    await page.locator(".workspace").waitFor();
  }
  return session;
}

export async function closeConsoleSession(session: ConsoleSession | undefined): Promise<void> {
  await session?.browser.close();
  await session?.fixture.close();
}

/** No CSP violation was reported or logged; and reporting works (an inline script is blocked and reported). */
export async function expectNoCspViolation(session: ConsoleSession): Promise<void> {
  const { fixture, page } = session;
  expect(fixture.console.cspReports()).toEqual([]);
  expect(session.cspConsole).toEqual([]);
  allowStderr(/"msg":"the console page reported a Content-Security-Policy violation"/);
  await page.evaluate(`{
    const script = document.createElement("script");
    script.textContent = "window.inlineRan = true";
    document.body.append(script);
  }`);
  await expect.poll(() => fixture.console.cspReports().length).toBe(1);
  expect(fixture.console.cspReports()[0]).toMatchObject({
    directive: expect.stringMatching(/^script-src/),
    blocked: "inline",
  });
  expect(await page.evaluate("window.inlineRan")).toBeUndefined();
}

/** No response the page received holds one of the configuration's secrets (at least `least` responses). */
export async function expectNoSecretSent(session: ConsoleSession, least: number): Promise<void> {
  const answers = await Promise.all(session.bodies);
  expect(answers.length).toBeGreaterThan(least);
  const canaries = await session.fixture.canaries();
  for (const answer of answers) {
    for (const canary of canaries)
      expect({ url: answer.url, leaked: answer.text.includes(canary) }).toEqual({
        url: answer.url,
        leaked: false,
      });
  }
}
