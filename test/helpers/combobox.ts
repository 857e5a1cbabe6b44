/**
 * Picks a choice in one of the console's comboboxes (console/src/Combobox.tsx) as a person does: types, waits
 * until the list has come and holds still, then clicks the choice. A click while the list is still being drawn
 * or replaced can land as it changes (CI, stop 34: "trade" stayed typed in the List box; s6: "activeUsers" in a
 * metric's), which is not what a person meets.
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";

export async function pickChoice(page: Page, field: string, typed: string, option: RegExp) {
  const box = page.getByRole("combobox", { name: field, exact: true });
  await box.fill(typed);
  const list = page.locator(`#${await box.getAttribute("aria-controls")}`);
  const wanted = list.getByRole("option", { name: option }).first();
  await wanted.waitFor();
  // Still: the list reads the same twice, 100 ms apart.
  let before: string | undefined;
  await expect
    .poll(
      async () => {
        const now = await list.innerText();
        const still = now === before;
        before = now;
        return still;
      },
      { interval: 100 },
    )
    .toBe(true);
  await wanted.click();
  return box;
}
