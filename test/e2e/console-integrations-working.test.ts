/**
 * The integrations cards say what is known of each connection in a person's words (trial s10, finding 5:
 * "Set up, not tested yet" for a Marketo that had answered 21 calls; "No Test since this server started,
 * but reading its Analytics properties worked"). In headless Chromium at 1280 and 400 px: before any call
 * Marketo's card says it is set up, not tested; after a task ran, it reads as working, with how many calls
 * were answered since when, and still claims no Test; the Google account that listed its properties reads
 * as working, not tested. Screenshots: test-output/screenshots/integrations-working-<width>-<screen>.png.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { marketoTaskPage } from "../helpers/marketo-task-page.js";

const TIME = String.raw`\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC`;

describe.each([1280, 400])("what the integrations cards know at %i px", { timeout: 90_000 }, (width) => {
  const task = marketoTaskPage(width);
  const { open, run, summary } = task;
  let page: Page;
  beforeAll(() => {
    page = task.page();
  });
  const marketo = () => page.getByRole("region", { name: "Adobe Marketo Engage" });
  const openIntegrations = async () => {
    await page.goto(`${task.fixture().base}/#/integrations`);
    await page.getByRole("heading", { name: "Integrations", level: 1 }).waitFor();
    await page.waitForLoadState("networkidle");
  };

  it("says Marketo is set up, not tested, before any call, and the Google account works as its properties were read", async () => {
    await openIntegrations();
    expect(await marketo().getByTestId("status-chip").textContent()).toBe("Set up, not tested yet");
    expect(await marketo().getByTestId("marketo-calls").count()).toBe(0);
    const google = page.getByRole("article", { name: "Google account sandbox" });
    await expect
      .poll(() => google.getByTestId("google-last-test").textContent())
      .toMatch(new RegExp(`^Working: its Analytics properties were read on ${TIME}\\.$`));
    expect(await google.getByTestId("status-chip").textContent()).toBe("Connected");
  });

  it("reads Marketo as working once calls were answered, with how many since when, and claims no Test", async () => {
    await page.goto(task.fixture().base);
    await open("find lead", "Find a lead");
    await page.getByRole("textbox", { name: /^Email address/ }).fill("lead7@example.com");
    await run();
    await expect.poll(() => summary().textContent(), { timeout: 60_000 }).toMatch(/^Found 1 lead/);
    await openIntegrations();
    const calls = marketo().getByTestId("marketo-calls");
    expect(await calls.textContent()).toMatch(new RegExp(`^Working: \\d+ calls? answered since ${TIME}\\.$`));
    expect(await calls.getAttribute("data-ok")).toBe("true");
    expect(await marketo().getByTestId("status-chip").textContent()).toBe("Connected");
    // No Test was run: the card says none happened, and its button keeps its words.
    expect(await marketo().getByTestId("marketo-last-test").count()).toBe(0);
    expect(await marketo().textContent()).not.toMatch(/tested|Test:/);
    expect(await marketo().getByRole("button", { name: "Test connection" }).count()).toBe(1);
    await task.check("integrations-working");
  });
});
