/**
 * A picker keeps what a person types while its choices are still loading. Run Reports' metric picker lists the
 * property's fields once GET /console/api/google/metadata answers; a person who types "sessions" before that
 * (a slow connection, a loaded machine) must still see "sessions" in the box and "Sessions" first once the
 * list arrives. It was wiped: the list arriving reset the box to the field's (empty) value, and the
 * unfiltered list then showed "1-day active users" first.
 */
import type { Page, Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signedInConsole } from "../helpers/signed-in-console.js";

describe("a picker typed into before its choices load", () => {
  let page: Page;

  signedInConsole({ timeout: 15_000 }, (signedIn) => {
    ({ page } = signedIn);
  });

  it("keeps the typed text, and lists the matching choice first when they arrive", async () => {
    // The property's metadata is held back until the person has typed.
    const held: Route[] = [];
    let released = false;
    await page.route("**/console/api/google/metadata?**", async (route) => {
      if (released) await route.continue();
      else held.push(route);
    });
    await page.getByLabel("Search tool steps").fill("report");
    await page.getByRole("button", { name: /^Run Reports/ }).click();
    await expect.poll(() => page.getByLabel("Property").inputValue(), { timeout: 15_000 }).toMatch(/^\d+$/);
    await page.locator("#root_metrics").getByRole("button", { name: "Add", exact: true }).last().click();
    const metric = page.getByRole("combobox", { name: "Metric 1", exact: true });
    await metric.fill("sessions");
    await expect.poll(() => held.length).toBeGreaterThan(0);
    released = true;
    for (const route of held) await route.continue();
    const list = page.locator(`#${await metric.getAttribute("aria-controls")}`);
    await expect.poll(() => list.getByRole("option").count()).toBeGreaterThan(0);
    expect(await metric.inputValue()).toBe("sessions");
    expect(await list.getByRole("option").first().textContent()).toBe("Sessions");
  });
});
