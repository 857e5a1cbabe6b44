/**
 * An export's Lead fields as a person sets them (console/src/marketo/LeadFieldsInput.tsx): the chips under
 * the box read in order, each removed by its own button, each field picked from the box's list.
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";

/** The names picked, in order (the chips' text). */
export const pickedLeadFields = (page: Page) =>
  page
    .getByRole("list", { name: "Columns of the file, in order" })
    .getByRole("listitem")
    .locator("span")
    .allInnerTexts();

/** Removes every chip, then picks `names` in order: the box then holds exactly these columns. */
export async function setLeadFields(page: Page, names: readonly string[]): Promise<void> {
  const chips = page.getByRole("list", { name: "Columns of the file, in order" });
  await page.getByRole("combobox", { name: "Lead fields", exact: true }).waitFor();
  while ((await chips.getByRole("button").count()) > 0) await chips.getByRole("button").first().click();
  for (const [i, name] of names.entries()) {
    const box = page.getByRole("combobox", { name: "Lead fields", exact: true });
    await box.fill(name);
    const list = page.locator(`#${await box.getAttribute("aria-controls")}`);
    await list
      .getByRole("option", { name: new RegExp(`^${name}`) })
      .first()
      .click();
    // Picked: a chip more, and the box empty for the next one.
    await expect.poll(async () => (await pickedLeadFields(page))[i]).toBe(name);
  }
  // Whatever list is still open is closed before the test goes on (a pick closes its own).
  await page.keyboard.press("Escape");
  await expect.poll(() => pickedLeadFields(page)).toEqual(names);
}
