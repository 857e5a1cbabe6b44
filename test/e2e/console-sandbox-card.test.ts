/**
 * The Marketo card when `npm start` runs on the built-in sandbox (review s9, finding 9): it says so in words
 * (not by a loopback host), that no account or credentials are needed, and how to use one's own instance; its
 * Test does not claim that the empty credential boxes were accepted, and those boxes wait closed under "Use your
 * own Marketo instance" (trial s9, finding 9). The Google account's card names the property reports open on,
 * as the report form opens on it. At 1280 and 400 px, axe clean.
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
      // No empty credential boxes as if something were missing (trial s9, finding 9): they wait, closed,
      // under "Use your own Marketo instance".
      const secret = marketo.getByLabel("Client Secret", { exact: true });
      expect(await secret.isVisible()).toBe(false);
      expect(await marketo.innerText()).not.toMatch(/not set|Client ID|REST API Endpoint/);
      await marketo.getByText("Use your own Marketo instance", { exact: true }).click();
      expect(await secret.isVisible()).toBe(true);
      await marketo.getByText("Use your own Marketo instance", { exact: true }).click();
      await marketo.getByRole("button", { name: "Test connection" }).click();
      await expect.poll(() => marketo.getByRole("status").textContent()).toBe(SANDBOX_TESTED);
      expect(await axeViolations(page)).toEqual([]);
      await browser.screenshot(`sandbox-marketo-card-${width}`);
    },
  );

  it("says which property reports open on, the one Run Reports' form opens on (trial s9, finding 9)", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(fixture.console.loginUrl(fixture.base));
    await page.locator(".workspace").waitFor();
    await page.getByRole("link", { name: "Integrations" }).click();
    const opening = page
      .getByRole("article", { name: "Google account sandbox" })
      .getByTestId("google-opening-property");
    await expect.poll(() => opening.textContent()).toBe("Retail Web Store (412345671)");
    const said = await opening.textContent();
    await page.getByRole("link", { name: "Tool steps" }).click();
    await page.getByLabel("Search tool steps").fill("analytics");
    await page.getByRole("button", { name: /^Run Reports/ }).click();
    const property = page.getByLabel("Property");
    await expect.poll(() => property.inputValue()).toMatch(/^\d+$/);
    const picked = await property.locator("option:checked").textContent();
    expect(picked).toBe(said);
  });

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
