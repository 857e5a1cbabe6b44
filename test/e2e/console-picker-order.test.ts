/**
 * The order of Run Reports' metric suggestions as a marketer sees them, at 1280 and 400 px (trial s9,
 * finding 10: "users" listed 1-day, 28-day and 7-day active users before Total users, and at 400 px the
 * usual one was off-screen): the plain names first, and the first of them in view when the list opens.
 * The rule itself is console/src/choices.ts' `matchRank` (test/console/picker-ranking.test.ts).
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { Browser } from "../helpers/browser.js";
import { signedInConsole } from "../helpers/signed-in-console.js";

describe.each([1280, 400])("metric suggestions in order at %i px", { timeout: 60_000 }, (width) => {
  let browser: Browser;
  let page: Page;

  signedInConsole({ width, timeout: 15_000 }, (signedIn) => {
    ({ browser, page } = signedIn);
  });

  it.each([
    ["users", ["Total users", "Active users"], ["1-day active users", "28-day active users"]],
    [
      "revenue",
      ["Purchase revenue", "Total revenue"],
      ["Gross item revenue", "Item revenue", "Total ad revenue"],
    ],
  ])("typing %s lists %j before %j, the first in view", async (typed, first, then) => {
    if ((await page.getByRole("combobox", { name: "Metric 1", exact: true }).count()) === 0) {
      await page.getByLabel("Search tool steps").fill("report");
      await page.getByRole("button", { name: /^Run Reports/ }).click();
      await expect.poll(() => page.getByLabel("Property").inputValue()).toMatch(/^\d+$/);
      await page.locator("#root_metrics").getByRole("button", { name: "Add", exact: true }).last().click();
    }
    const metric = page.getByRole("combobox", { name: "Metric 1", exact: true });
    await metric.fill(typed);
    const list = page.locator(`#${await metric.getAttribute("aria-controls")}`);
    const labels = () => list.getByRole("option").locator(".combo-label").allTextContents();
    await expect.poll(labels).toEqual(expect.arrayContaining([...first, ...then]));
    const shown = await labels();
    const last = Math.max(...first.map((label) => shown.indexOf(label)));
    for (const label of then)
      expect({ label, after: shown.indexOf(label) > last }).toEqual({ label, after: true });
    // The first of the plain names is in view in the open list, without scrolling it.
    const option = list.getByRole("option", { name: new RegExp(`^${first[0]}`) }).first();
    const [box, listBox] = await Promise.all([option.boundingBox(), list.boundingBox()]);
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(
      (listBox?.y ?? 0) + (listBox?.height ?? 0),
    );
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
    await browser.screenshot(`picker-order-${width}-${typed}`);
  });
});
