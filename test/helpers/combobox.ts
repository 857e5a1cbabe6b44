/**
 * Picks a choice in one of the console's comboboxes (console/src/Combobox.tsx) as a person does: types, waits
 * until the list has come and holds still, clicks the choice, and sees the box show it. A click while the list
 * is still being drawn or replaced can land as it changes (CI, stop 34: "trade" stayed typed in the List box;
 * s6: "activeUsers" in a metric's), which is not what a person meets.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { FAILURES } from "./browser.js";

async function clickWhenStill(page: Page, field: string, typed: string, option: RegExp) {
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
  const label = (await wanted.locator(".combo-label").textContent()) ?? "";
  await wanted.click();
  return { box, label };
}

const shows = async (box: ReturnType<Page["getByRole"]>, label: string) => {
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline) {
    if ((await box.inputValue()) === label) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
};

export async function pickChoice(page: Page, field: string, typed: string, option: RegExp) {
  const first = await clickWhenStill(page, field, typed, option);
  if (await shows(first.box, first.label)) return first.box;
  // The box does not show the choice clicked. Seen only under CI load (stop 35, "trade" in the List box at
  // 400 px) and never reproduced: what the box held is written where .ci/run prints it, then the person's
  // obvious next move, picking again, is made once. A second miss fails the test.
  const held = `${field}: clicked "${first.label}", the box shows ${JSON.stringify(await first.box.inputValue())}, expanded=${await first.box.getAttribute("aria-expanded")}`;
  mkdirSync(FAILURES, { recursive: true });
  writeFileSync(
    join(FAILURES, `pick-missed-${Date.now()}.txt`),
    `a pick missed (Node ${process.version}): ${held}\n`,
  );
  const again = await clickWhenStill(page, field, typed, option);
  expect(await shows(again.box, again.label), `picked again after a missed pick; ${held}`).toBe(true);
  return again.box;
}
