/**
 * A list's members can be searched, and the lead just added shows first (trial s10, finding 2: "Beta Testers
 * has 81 members", and lead1234 was found only by scrolling a box inside the page). In headless Chromium at
 * 1280 and 400 px: a lead added to Beta Testers, then its members opened from the add's result; the lead is
 * the first row and the words say so; the search box, reached with the keyboard, narrows the members by
 * email, name or id and says how many of all are shown. The same lead added again is on the list already:
 * its members then say so, not "just added" (console review s14, finding 4).
 * Screenshots: test-output/screenshots/marketo-<width>-member-search-*.png.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { marketoTaskPage } from "../helpers/marketo-task-page.js";

const LEAD = "1234";

describe.each([1280, 400])("searching a list's members at %i px", { timeout: 90_000 }, (width) => {
  const task = marketoTaskPage(width);
  const { check, open, run, summary, pick } = task;
  let page: Page;
  beforeAll(() => {
    page = task.page();
  });
  const rows = () => page.locator(".results table[aria-label='Records'] tbody tr");

  it("shows the lead just added first, then finds members by email, name or id", async () => {
    await open("add to list", "Add or remove leads on a list");
    await pick("List", "beta", /^Beta Testers/);
    await page.getByRole("textbox", { name: /^Leads\W*$/ }).fill(LEAD);
    await run();
    await expect.poll(() => summary().textContent(), { timeout: 60_000 }).toMatch(/Beta Testers/);
    await page.getByRole("button", { name: "Show the members of Beta Testers" }).click();
    await expect
      .poll(() => summary().textContent(), { timeout: 60_000 })
      .toMatch(/^Beta Testers has [\d,]+ members\.$/);
    const members = Number(/has ([\d,]+) members/.exec((await summary().textContent()) ?? "")?.[1]);
    const search = page.getByRole("searchbox", { name: "Find a member" });
    const status = page.locator(".member-search [role='status']");
    // The lead just added is the first row, and the words under the box say so.
    await expect.poll(() => rows().first().textContent()).toContain(`lead${LEAD}@example.com`);
    expect(await status.textContent()).toMatch(
      new RegExp(`^${members} of ${members} shown; .*\\(lead${LEAD}@example\\.com\\), just added, first\\.$`),
    );
    // One count only: the one under the box (the table's "Showing 81 of 81 leads" said otherwise once narrowed).
    expect(await page.locator(".results .shown").count()).toBe(0);
    const added = /shown; (.*), just added, first\.$/.exec((await status.textContent()) ?? "")?.[1];
    await check("member-search-01-added-first");
    // Reached from the keyboard: Tab from the result's heading comes to the box before the table.
    await page.locator("#result-heading").focus();
    const focused = async () =>
      (await page.evaluate(`document.activeElement?.matches(".member-search input[type=search]")`)) === true;
    for (let tab = 0; tab < 10 && !(await focused()); tab++) await page.keyboard.press("Tab");
    expect(await focused()).toBe(true);
    await page.keyboard.type(`LEAD${LEAD}@`);
    await expect.poll(() => status.textContent()).toBe(`1 of ${members} shown; ${added}, just added, first.`);
    expect(await rows().count()).toBe(1);
    await check("member-search-02-searched");
    // By id, whole: the lead of that id only.
    await search.fill(LEAD);
    await expect.poll(() => rows().count()).toBe(1);
    expect(await rows().first().textContent()).toContain(`lead${LEAD}@example.com`);
    // By a name: every member whose name holds it; none says so.
    const last = (await rows().first().locator("td").allTextContents()).find((cell) =>
      /^[A-Z][a-z]+$/.test(cell),
    );
    if (last) {
      await search.fill(last.toLowerCase());
      await expect.poll(() => rows().count()).toBeGreaterThan(0);
      expect(await status.textContent()).toMatch(new RegExp(`^\\d+ of ${members} shown`));
    }
    await search.fill("nobody-at-all");
    await expect.poll(() => status.textContent()).toBe(`0 of ${members} shown.`);
    await search.fill("");
    await expect.poll(() => rows().count()).toBe(members);
  });

  it("says a lead the add found on the list already is on it, not just added (review s14, finding 4)", async () => {
    await open("add to list", "Add or remove leads on a list");
    await pick("List", "beta", /^Beta Testers/);
    await page.getByRole("textbox", { name: /^Leads\W*$/ }).fill(LEAD);
    await run();
    await expect
      .poll(() => summary().textContent(), { timeout: 60_000 })
      .toMatch(/^1 lead was on Beta Testers already: none added/);
    await page.getByRole("button", { name: "Show the members of Beta Testers" }).click();
    await expect
      .poll(() => summary().textContent(), { timeout: 60_000 })
      .toMatch(/^Beta Testers has [\d,]+ members\.$/);
    const members = Number(/has ([\d,]+) members/.exec((await summary().textContent()) ?? "")?.[1]);
    const status = page.locator(".member-search [role='status']");
    // Still first, to be found at once, and said to be there already.
    await expect.poll(() => rows().first().textContent()).toContain(`lead${LEAD}@example.com`);
    expect(await status.textContent()).toMatch(
      new RegExp(
        `^${members} of ${members} shown; .*\\(lead${LEAD}@example\\.com\\), already on the list, first\\.$`,
      ),
    );
    await check("member-search-03-already-first");
  });
});
