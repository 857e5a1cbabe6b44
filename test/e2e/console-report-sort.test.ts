/**
 * Run Reports' Sort by and Filter without typed syntax (newcomer trial s9, finding 7), in headless Chromium
 * at 1280 and 400 px: Sort by is a choice of the report's chosen metrics and dimensions by the names the
 * pickers show, "largest first" or "smallest first", and sends what typing "-sessions" sent; a sort typed by
 * name still works; the Filter box's example reads as its help does. Axe finds nothing, no sideways scroll.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations } from "../helpers/axe.js";
import type { Browser } from "../helpers/browser.js";
import { pickChoice } from "../helpers/combobox.js";
import type { ConsoleFixture } from "../helpers/console.js";
import { reportForm } from "../helpers/report-form.js";
import { signedInConsole } from "../helpers/signed-in-console.js";

describe.each([1280, 400])("Run Reports' Sort by and Filter at %i px", { timeout: 90_000 }, (width) => {
  let fixture: ConsoleFixture;
  let browser: Browser;
  let page: Page;
  signedInConsole({ width, timeout: 20_000 }, (signedIn) => {
    ({ fixture, browser, page } = signedIn);
  });
  const { runReportsFrom, runForRows } = reportForm(
    () => page,
    () => fixture,
  );
  const sort = () => page.getByLabel("Sort by", { exact: true });
  const order = () => page.getByLabel("Order", { exact: true });

  /** The input of the next run the page sends. */
  const nextRunInput = () =>
    page
      .waitForRequest((request) => /\/console\/api\/steps\/[^/]+\/run$/.test(request.url()))
      .then(
        (request) => (JSON.parse(request.postData() ?? "{}") as { input: Record<string, unknown> }).input,
      );

  it("offers the report's columns by name and a direction, and sends what typing did", async () => {
    await runReportsFrom("Sessions by channel, last 28 days vs the 28 before", width);
    // The example's "-sessions" reads as a choice.
    expect(await sort().locator("option:checked").textContent()).toBe("Sessions");
    expect(await order().locator("option:checked").textContent()).toBe("largest first");
    const offered = await sort().locator("option").allTextContents();
    expect(offered).toEqual([
      "The report's own order",
      "Sessions",
      "Session default channel group",
      "Type it instead…",
    ]);
    expect(offered.join(" ")).not.toMatch(/sessionDefaultChannelGroup|-sessions/);
    const sent = nextRunInput();
    await runForRows(30_000);
    expect((await sent).order_by).toBe("-sessions");
    await page.locator(".workspace").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    const over = (await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")) as number;
    expect(over).toBeLessThanOrEqual(0);
    await browser.screenshot(`report-sort-${width}-01-example`);
  });

  it("sorts by a dimension smallest first, and by a sort typed by name", async () => {
    await sort().selectOption({ label: "Session default channel group" });
    await order().selectOption({ label: "smallest first" });
    let sent = nextRunInput();
    await runForRows(30_000);
    expect((await sent).order_by).toBe("sessionDefaultChannelGroup");
    await sort().selectOption({ label: "Type it instead…" });
    await sort().fill("-Sessions");
    sent = nextRunInput();
    await runForRows(30_000);
    expect((await sent).order_by).toBe("-sessions");
  });

  it("gives the Filter box an example in its help's form", async () => {
    const filter = page.getByLabel("Filter", { exact: true });
    expect(await filter.getAttribute("placeholder")).toBe("e.g. Country = France");
    const help = (await page.locator("#root_filter").locator("xpath=..").innerText()) ?? "";
    expect(help).toContain("Country = France");
    // The metrics changed, the choice follows them (the typed sort named a column no longer there).
    await pickChoice(page, "Metric 1", "Views", /^Views$/);
    await page.getByRole("button", { name: "Choose from the report's columns" }).click();
    expect(await sort().locator("option:checked").textContent()).toBe("The report's own order");
    expect(await sort().locator("option").allTextContents()).toContain("Views");
  });
});
