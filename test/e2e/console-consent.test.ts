/**
 * The consent page of the embedded authorization server (where a person approves an MCP client), in
 * headless Chromium: after logging in to the console, every control of the page is reached with the Tab
 * key with a visible focus ring, axe-core finds no serious violation, and Approve works from the keyboard;
 * it has the console's header and styles, and no sideways scroll at 400 or 1280 px.
 * Screenshots go to test-output/screenshots.
 */
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConsoleHandle } from "../../src/console/index.js";
import type { HttpServerHandle } from "../../src/host/http.js";
import { axeViolations } from "../helpers/axe.js";
import type { Browser } from "../helpers/browser.js";
import { tabThrough } from "../helpers/keyboard.js";
import { RecordingOAuthProvider } from "../helpers/oauth-browser.js";
import { closeSignInBrowser, openSignInBrowser, type SignInBrowser } from "../helpers/sign-in-browser.js";

describe("the MCP sign-in consent page with the keyboard", () => {
  let opened: SignInBrowser;
  let web: ConsoleHandle;
  let http: HttpServerHandle;
  let base: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    opened = await openSignInBrowser();
    ({ web, http, base, browser, page } = opened);
  }, 60_000);

  afterAll(() => closeSignInBrowser(opened));

  it("reaches every control of the consent page with the Tab key, and approves from the keyboard", async () => {
    const provider = new RecordingOAuthProvider();
    const transport = new StreamableHTTPClientTransport(new URL(http.url), { authProvider: provider });
    await expect(new Client({ name: "agent", version: "1" }).connect(transport)).rejects.toThrow(
      UnauthorizedError,
    );
    const start = provider.authorizationUrl as URL;
    await page.goto(web.loginUrl(base));
    await page.locator(".workspace").waitFor();
    await page.goto(start.href);
    const approve = page.getByRole("button", { name: /approve|allow/i });
    await approve.waitFor();
    expect(await page.textContent("body")).toContain("Test Agent <b>");
    const { controls, missed, unseen } = await tabThrough(page);
    expect(controls.length).toBeGreaterThanOrEqual(2);
    expect({ missed, unseen }).toEqual({ missed: [], unseen: [] });
    expect(await axeViolations(page)).toEqual([]);
    await browser.screenshot("consent-01-keyboard");
    // In the console's frame: its header (with the workspace) and its stylesheet, which the page's CSP
    // admits ('self'); no sideways scroll at 400 or 1280 px, axe clean at both.
    expect(await page.locator("header strong").textContent()).toBe("martech-steps");
    expect(await page.locator("header .workspace").textContent()).toMatch(/^Workspace \S+/);
    expect(await page.evaluate("getComputedStyle(document.querySelector('main .card')).borderTopStyle")).toBe(
      "solid",
    );
    for (const width of [400, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await browser.screenshot(`consent-02-${width}`);
    }
    // Approve from the keyboard: the browser goes on to the client's redirect with a code.
    // A real browser's POST (its own Origin header, not a script's) is accepted: the page's referrer
    // policy lets Chromium send the page's origin rather than "null".
    const redirected = page.waitForRequest((request) => request.url().startsWith(provider.redirectUrl));
    await approve.focus();
    await page.keyboard.press("Enter");
    expect(new URL((await redirected).url()).searchParams.get("code")).toBeTruthy();
  });
});
