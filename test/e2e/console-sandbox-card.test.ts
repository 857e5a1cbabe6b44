/**
 * The Marketo card when `npm start` runs on the built-in sandbox (review s9, finding 9): it says so in words
 * (not by a loopback host), that no account or credentials are needed, and how to use one's own instance; its
 * Test does not claim that the empty credential boxes were accepted. At 1280 and 400 px, axe clean.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations } from "../helpers/axe.js";
import { type Browser, launchBrowser } from "../helpers/browser.js";
import { type ConsoleFixture, ConsolePage, startConsoleFixture } from "../helpers/console.js";

const SANDBOX_TESTED =
  "The built-in sandbox answered as Marketo would: its own credentials work (none of yours are used).";

describe("the Marketo card on the built-in sandbox", () => {
  let fixture: ConsoleFixture;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    fixture = await startConsoleFixture({ sandbox: { marketo: true } });
    browser = await launchBrowser();
    page = browser.page;
    page.setDefaultTimeout(10_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
  });

  it.each([1280, 400])(
    "names the sandbox, not its host, and its Test says whose credentials worked (%i px)",
    async (width) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(fixture.console.loginUrl(fixture.base));
      await page.locator(".workspace").waitFor();
      await page.getByRole("link", { name: "Integrations" }).click();
      const marketo = page.getByRole("region", { name: "Adobe Marketo Engage" });
      await expect
        .poll(() => marketo.getByTestId("marketo-status").textContent())
        .toMatch(/^Using the built-in sandbox: .*no Marketo account or credentials are needed/);
      expect(await marketo.getByTestId("marketo-instance").count()).toBe(0);
      expect(await marketo.textContent()).not.toContain(new URL(fixture.marketo.restEndpoint).host);
      expect(await marketo.getByTestId("marketo-own-instance").textContent()).toMatch(
        /your own Marketo instance.*uses them from its next start/,
      );
      await marketo.getByRole("button", { name: "Test connection" }).click();
      await expect.poll(() => marketo.getByRole("status").textContent()).toBe(SANDBOX_TESTED);
      expect(await axeViolations(page)).toEqual([]);
      await browser.screenshot(`sandbox-marketo-card-${width}`);
    },
  );

  it("answers a Test of typed credentials as Marketo did, not with the sandbox's words", async () => {
    const api = new ConsolePage(fixture, []);
    await api.login();
    const typed = await api.call("POST", "/console/api/marketo/test", {
      clientId: fixture.marketo.clientId,
      clientSecret: "typed-and-wrong",
      restEndpoint: fixture.marketo.restEndpoint,
    });
    expect(typed.status).not.toBe(200);
    expect(typed.text).not.toContain("built-in sandbox answered");
    const empty = await api.json<{ message: string }>("POST", "/console/api/marketo/test", {});
    expect(empty.message).toBe(SANDBOX_TESTED);
  });
});
