/**
 * An export's Lead fields picked from the instance's lead fields (console review s10, finding 8: a
 * comma-separated box where the marketer guessed the names), in headless Chromium at 1280 and 400 px: the
 * fields by the names Marketo shows, found by typing part of one, the picks as chips in order, each
 * removable, all by keyboard; a name no field has is said under the box and nothing is added; the export
 * still asks Marketo for the REST names, in the order picked, and heads its columns with the names picked.
 * A field's name typed in any case and spacing and left unpicked is that field, a column already or not
 * (console review s14, finding 6: "lead score", already a column, was said to be no lead field).
 * Screenshots: test-output/screenshots/marketo-<width>-lead-fields-*.png, copied to /work/review-pickers.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { SCREENSHOTS } from "../helpers/browser.js";
import { pickedLeadFields } from "../helpers/lead-field-picks.js";
import { marketoTaskPage } from "../helpers/marketo-task-page.js";

const REVIEW = "/work/review-pickers";

describe.each([1280, 400])("an export's lead fields picked at %i px", { timeout: 90_000 }, (width) => {
  const task = marketoTaskPage(width);
  const { check, open, restCall, run, headline } = task;
  let page: Page;
  beforeAll(() => {
    page = task.page();
  });
  const box = () => page.getByRole("combobox", { name: "Lead fields", exact: true });
  const chips = () => page.getByRole("list", { name: "Columns of the file, in order" });
  const screen = async (name: string) => {
    await check(name);
    const shot = join(SCREENSHOTS, `marketo-${width}-${name}.png`);
    mkdirSync(REVIEW, { recursive: true });
    copyFileSync(shot, join(REVIEW, `marketo-${width}-${name}.png`));
  };

  /** The fields box's list is closed and stays so for half a second (it opened again just after a pick). */
  const staysClosed = async () => {
    for (let i = 0; i < 5; i++) {
      expect(await box().getAttribute("aria-expanded")).toBe("false");
      expect(await page.locator("#task_export_fields-list").getByRole("option").count()).toBe(0);
      await page.waitForTimeout(100);
    }
  };
  /** Whether a press at the middle of the element `id` lands on it (not on a list drawn over it). */
  const onTop = async (id: string) => {
    await page.locator(`[id="${id}"]`).scrollIntoViewIfNeeded();
    // A string, as the page's own code: this file is typed without the browser's DOM.
    return page.evaluate(`(() => {
      const element = document.getElementById(${JSON.stringify(id)});
      const { x, y, width, height } = element.getBoundingClientRect();
      const hit = document.elementFromPoint(x + width / 2, y + height / 2);
      return hit !== null && element.contains(hit);
    })()`);
  };

  it("starts with the usual columns as chips, by the names Marketo shows, and no text box of names", async () => {
    await open("export", "Export leads or activities");
    await box().waitFor();
    expect(await pickedLeadFields(page)).toEqual(
      expect.arrayContaining(["Email Address", "First Name", "Lead Score", "Created At"]),
    );
    // Trial s10, finding 8: the names were a line of text to edit.
    expect(await page.getByRole("textbox", { name: /^Lead fields/ }).count()).toBe(0);
    expect(await page.locator("#task_export_fields-help").textContent()).toMatch(
      /^The columns of the file, in order: type part of each lead field's name/,
    );
  });

  it("closes the list after a pick: the chip added and the next box show, and typing or ArrowDown opens it", async () => {
    // Console review s14, finding 2: picked, "Country" went to a chip hidden under the list opened again at
    // once, over "Keep rows where" too, and a click meant for that box added a column.
    const list = page.locator("#task_export_fields-list");
    const before = await pickedLeadFields(page);
    await box().click();
    await box().pressSequentially("countr", { delay: 60 });
    await list
      .getByRole("option", { name: /^Country/ })
      .first()
      .click();
    await expect.poll(() => pickedLeadFields(page)).toEqual([...before, "Country"]);
    await expect.poll(() => page.evaluate("document.activeElement?.id")).toBe("task_export_fields");
    await staysClosed();
    // What lay under the list takes a press again: the new chip and the next box.
    const filter = page.getByLabel("Keep rows where");
    const below = [`task_export_fields-remove-${before.length}`, (await filter.getAttribute("id")) ?? ""];
    for (const id of below) expect(await onTop(id), id).toBe(true);
    await screen("lead-fields-after-pick");
    // The list comes back when asked for: ArrowDown lists the fields, typing narrows them.
    await box().press("ArrowDown");
    await expect.poll(() => list.getByRole("option").count()).toBeGreaterThan(0);
    await page.keyboard.press("Escape");
    await box().pressSequentially("cit", { delay: 60 });
    await list.getByRole("option", { name: /^City/ }).first().waitFor();
    await page.keyboard.press("Escape");
    await box().fill("");
    await page.keyboard.press("Escape");
    await filter.click();
    expect(await page.evaluate("document.activeElement?.id")).toBe(await filter.getAttribute("id"));
    expect(await pickedLeadFields(page)).toEqual([...before, "Country"]);
  });

  it("removes and picks by keyboard, and says so under the box when a name is no lead field", async () => {
    // Each chip's Remove button, by Enter: the focus stays on the chips, then goes back to the box.
    await chips().getByRole("button").first().focus();
    while ((await chips().getByRole("button").count()) > 0) {
      const focused = await page.evaluate("document.activeElement?.getAttribute('aria-label')");
      expect(focused).toMatch(/^Remove /);
      await page.keyboard.press("Enter");
    }
    await expect.poll(() => page.evaluate("document.activeElement?.id")).toBe("task_export_fields");
    // Part of a name, then the list's first match, all by keys.
    for (const [typed, name] of [
      ["countr", "Country"],
      // Its name in one word finds it too, as the help says.
      ["firstnam", "First Name"],
      ["lead sou", "Lead Source"],
      ["score", "Lead Score"],
    ] as const) {
      await page.keyboard.press("Escape");
      await box().pressSequentially(typed, { delay: 60 });
      await page
        .getByRole("option", { name: new RegExp(`^${name}`) })
        .first()
        .waitFor();
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      await expect.poll(async () => (await pickedLeadFields(page)).at(-1)).toBe(name);
      expect(await box().inputValue()).toBe("");
      expect(await page.evaluate("document.activeElement?.id")).toBe("task_export_fields");
    }
    expect(await pickedLeadFields(page)).toEqual(["Country", "First Name", "Lead Source", "Lead Score"]);
    // A field picked once is not offered again: the list, once still, has no "Country".
    await page.keyboard.press("Escape");
    await box().fill("Countr");
    const list = page.locator("#task_export_fields-list");
    await expect.poll(() => box().getAttribute("aria-expanded")).toBe("true");
    const status = page.locator(".pick-many .combo-status");
    await expect.poll(async () => `${await list.innerText()}${await status.innerText()}`).not.toBe("");
    expect(await list.getByRole("option", { name: /^Country$/ }).count()).toBe(0);
    // A name no field has: said under the box, with the nearest names, and nothing added.
    await box().fill("Emial Adress");
    await expect.poll(() => status.innerText()).toMatch(/^Nothing matches “Emial Adress”/);
    await page.keyboard.press("Enter");
    const note = page.locator("#task_export_fields-unknown");
    await expect
      .poll(() => note.textContent())
      .toBe('No lead field is named "Emial Adress". Did you mean "Email Address"? Pick one from the list.');
    expect(await box().getAttribute("aria-describedby")).toContain("task_export_fields-unknown");
    expect(await pickedLeadFields(page)).toEqual(["Country", "First Name", "Lead Source", "Lead Score"]);
    await screen("lead-fields-unknown");
    // Emptied, the box no longer says so.
    await box().fill("");
    await expect.poll(() => note.count()).toBe(0);
    // A column's name typed in another case or spacing, not picked: that column, nothing said, none twice.
    for (const typed of ["lead score", "LEAD  SCORE", "leadscore"]) {
      await box().fill(typed);
      await page.keyboard.press("Enter");
      await expect.poll(() => box().inputValue()).toBe("");
      expect(await note.count()).toBe(0);
      expect(await pickedLeadFields(page)).toEqual(["Country", "First Name", "Lead Source", "Lead Score"]);
    }
    // A field not a column yet, its name so typed, is added.
    await box().fill("email  ADDRESS");
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await pickedLeadFields(page)).at(-1)).toBe("Email Address");
    expect(await note.count()).toBe(0);
    // The list a pick opens again lies over the chips (review s14, finding 2): closed first.
    await page.keyboard.press("Escape");
    await chips().getByRole("button", { name: "Remove Email Address" }).click();
    await expect
      .poll(() => pickedLeadFields(page))
      .toEqual(["Country", "First Name", "Lead Source", "Lead Score"]);
    await page.keyboard.press("Escape");
    await screen("lead-fields-picked");
  });

  it("exports the picked fields by their REST names, in order, headed by the names picked", async () => {
    await expect
      .poll(() => restCall().textContent())
      .toMatch(/"fields": \["country", "firstName", "leadSource", "leadScore"\]/);
    await run();
    await headline(
      /^Export ready: [\d,]+ leads, created /,
      /^POST \/bulk\/v1\/leads\/export\/create\.json\n/,
    );
    expect(await page.locator(".results table[aria-label='Records'] thead th").allInnerTexts()).toEqual([
      "Country",
      "First Name",
      "Lead Source",
      "Lead Score",
    ]);
    await screen("lead-fields-result");
  });
});
