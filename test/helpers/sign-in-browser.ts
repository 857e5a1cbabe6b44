/**
 * The embedded authorization server with the console's pages (consent, error) on one HTTP server, and a
 * headless Chromium page to look at them: what the sign-in pages' e2e files share.
 */
import type { Page } from "playwright-core";
import { type ConsoleHandle, createConsole } from "../../src/console/index.js";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import { oauthSettings } from "../../src/settings.js";
import { type Browser, launchBrowser } from "./browser.js";
import { type MarketoFixture, marketoFixture } from "./fixtures.js";

export interface SignInBrowser {
  fixture: MarketoFixture;
  web: ConsoleHandle;
  http: HttpServerHandle;
  /** The server's origin (the authorization server is under /oauth). */
  base: string;
  browser: Browser;
  page: Page;
}

export async function openSignInBrowser(): Promise<SignInBrowser> {
  const fixture = await marketoFixture();
  const web = createConsole({ workspace: () => fixture.workspace, loopback: true, env: {} });
  const http = await startHttpServer({
    port: 0,
    workspace: () => fixture.workspace,
    routes: web.routes,
    oauth: { ...oauthSettings({ MARTECH_STEPS_OAUTH: "embedded" }), consent: web.consent },
  });
  const browser = await launchBrowser();
  const page = browser.page;
  page.setDefaultTimeout(10_000);
  return { fixture, web, http, base: new URL(http.url).origin, browser, page };
}

export async function closeSignInBrowser(opened: SignInBrowser | undefined): Promise<void> {
  await opened?.browser.close();
  opened?.web.close();
  await opened?.http.close();
  await opened?.fixture.close();
}
