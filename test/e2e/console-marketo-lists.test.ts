/**
 * A marketer browsing the static lists and checking an add (trial s8, findings 1 and 10), in headless
 * Chromium at 1280 and 400 px: the List box, focused from the keyboard, clicked or opened with ArrowDown
 * while empty, lists every list with where it sits; a name that matches nothing says so and how to see
 * them all again; the campaign box does the same; every required field shows its mark; a list name nobody
 * has is refused naming all ten lists; after an add and a remove each lead's row says whether it is on the
 * list now, read back from Marketo. Screenshots: test-output/screenshots/marketo-lists-<width>-<screen>.png.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { Browser } from "../helpers/browser.js";
import { expectPersonScreen } from "../helpers/person-screen.js";
import { signedInConsole } from "../helpers/signed-in-console.js";

interface Option {
  value: string;
  label: string;
  detail?: string;
}

describe.each([1280, 400])("browsing Marketo's lists at %i px", { timeout: 90_000 }, (width) => {
  let browser: Browser;
  let page: Page;

  signedInConsole({ width, timeout: 20_000 }, (signedIn) => {
    ({ browser, page } = signedIn);
  });

  const check = async (screen: string) => {
    await expectPersonScreen(page, screen);
    await browser.screenshot(`marketo-lists-${width}-${screen}`);
  };
  const open = async (typed: string, task: string) => {
    await page.getByLabel("Search tool steps").fill(typed);
    await page
      .getByRole("list", { name: "Tasks" })
      .getByRole("button", { name: new RegExp(`^${task}`) })
      .click();
    await page.getByRole("region", { name: task }).waitFor();
  };
  /** The choices the server offers the field, as the page reads them. */
  const choices = (task: string, field: string) =>
    page.evaluate(
      async ([task, field]) =>
        (
          (await (
            await fetch(`/console/api/steps/marketo_api_call/tasks/${task}/choices/${field}`)
          ).json()) as { options: Option[] }
        ).options,
      [task, field],
    );
  const box = (name: string) => page.getByRole("combobox", { name, exact: true });
  const listed = async (name: string) => {
    const list = page.locator(`#${await box(name).getAttribute("aria-controls")}`);
    return list.getByRole("option");
  };
  /**
   * Each option's label and detail as shown, once the list is open and holds options. The box may already
   * be open when it is read (emptied after "nothing matches"), and React renders the options a frame after
   * the input event: reading at once could see the empty list of the moment before (a CI run did, on Node 22).
   */
  const shown = async (name: string) => {
    await expect.poll(() => box(name).getAttribute("aria-expanded")).toBe("true");
    const options = await listed(name);
    await expect.poll(() => options.count()).toBeGreaterThan(0);
    return Promise.all(
      (await options.all()).map(async (option) => [
        await option.locator(".combo-label").textContent(),
        (await option.locator(".combo-detail").count()) > 0
          ? await option.locator(".combo-detail").textContent()
          : undefined,
      ]),
    );
  };
  const closeBox = async (name: string) => {
    await page.locator(".runner.task h2").click();
    await expect.poll(() => box(name).getAttribute("aria-expanded")).toBe("false");
  };

  it("lists every list, with where it sits, on focus, click or ArrowDown; a name matching none says how to see all", async () => {
    await open("add to list", "Add or remove leads on a list");
    const lists = await choices("list_members", "list");
    expect(lists.length).toBe(10);
    const every = lists.map((list) => [list.label, list.detail]);
    expect(every.every(([, detail]) => /^in \S/.test(detail ?? ""))).toBe(true);
    // Every required field shows its mark (finding 10: none beside List); the name stays the field's.
    const region = page.getByRole("region", { name: "Add or remove leads on a list" });
    expect(await region.locator(".required").count()).toBe(3);
    for (const title of ["Action", "List", "Leads"])
      expect(
        await region
          .locator("label, legend")
          .filter({ hasText: new RegExp(`^${title} \\*$`) })
          .count(),
      ).toBe(1);
    expect(await box("List").getAttribute("aria-required")).toBe("true");
    // Its help says it can be browsed, not only typed in.
    expect(await page.locator("#task_list_members_list-help").textContent()).toMatch(
      /^Pick a list from the box/,
    );
    // Focused from the keyboard (Tab from the last option of Action), empty: every list.
    await page.getByRole("radio", { name: "Remove from the list" }).focus();
    await page.keyboard.press("Tab");
    await expect.poll(() => page.evaluate("document.activeElement?.getAttribute('role')")).toBe("combobox");
    expect(await shown("List")).toEqual(every);
    await check("01-focus-all");
    // Closed, then ArrowDown opens it again with all of them.
    await page.keyboard.press("Escape");
    await expect.poll(() => box("List").getAttribute("aria-expanded")).toBe("false");
    await page.keyboard.press("ArrowDown");
    expect((await shown("List")).length).toBe(10);
    // A click on the empty box, from elsewhere, opens it (the click must not close what focus opened).
    await closeBox("List");
    await box("List").click();
    expect((await shown("List")).length).toBe(10);
    // A name matching none: said, with the way back to all of them.
    await box("List").fill("Console training");
    const none = page.locator(".combo-none");
    await expect
      .poll(() => none.textContent())
      .toBe("Nothing matches “Console training”. Clear the box to see all 10 lists.");
    expect(await (await listed("List")).count()).toBe(0);
    await check("02-none-matches");
    await box("List").fill("");
    expect((await shown("List")).length).toBe(10);
    // Picked from the whole list; opened again, it lists all, the pick selected.
    await (await listed("List")).filter({ hasText: /^Trade Show Leads/ }).click();
    await expect.poll(() => box("List").inputValue()).toBe("Trade Show Leads");
    await closeBox("List");
    await box("List").click();
    expect((await shown("List")).length).toBe(10);
    expect(
      await (await listed("List")).filter({ hasText: /^Trade Show Leads/ }).getAttribute("aria-selected"),
    ).toBe("true");
    await closeBox("List");
  });

  it("refuses a list nobody made naming all ten, then says after an add and a remove whether the lead is on the list now", async () => {
    const lists = await choices("list_members", "list");
    await box("List").fill("Console training – Dec 2026");
    const leads = page.getByRole("textbox", { name: "Leads", exact: true });
    await leads.fill("lead7@example.com");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const error = page.locator(".has-error .error-detail");
    await expect
      .poll(() => error.textContent())
      .toMatch(/^No static list is named "Console training – Dec 2026"\./);
    const said = (await error.textContent()) ?? "";
    expect(lists.filter((list) => said.includes(`"${list.label}"`))).toEqual(lists);
    expect(said).not.toMatch(/in all/);
    await check("03-refused-all-named");
    // Add lead 7 to Trade Show Leads, then remove it: the rows say what the list holds after each. Emptied
    // after a refusal, the box lists its choices on a click (it does not open by itself then: noted, not fixed).
    await box("List").fill("");
    await page.getByRole("heading", { name: "Add or remove leads on a list" }).click();
    await box("List").click();
    expect((await shown("List")).length).toBe(10);
    await (await listed("List")).filter({ hasText: /^Trade Show Leads/ }).click();
    const row = page.locator(".results table[aria-label='Records'] tbody tr").first();
    const headers = page.locator(".results table[aria-label='Records'] thead th");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect
      .poll(() => row.locator("td").allTextContents())
      .toEqual([
        expect.stringMatching(/\(lead7@example\.com\)$/),
        "7",
        expect.stringMatching(/^(added|already on the list)$/),
        "yes",
      ]);
    expect(await headers.allInnerTexts()).toEqual(["Lead", "Lead ID", "Result", "On the list now"]);
    await check("04-added-on-list");
    await page.getByRole("radio", { name: "Remove from the list" }).check();
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect
      .poll(() => row.locator("td").allTextContents())
      .toEqual([expect.stringMatching(/\(lead7@example\.com\)$/), "7", "removed", "no"]);
    await check("05-removed-off-list");
  });

  it("lists every campaign when the empty Campaign box is focused", async () => {
    await open("trigger campaign", "Trigger a smart campaign");
    const campaigns = await choices("trigger_campaign", "campaign");
    expect(campaigns.length).toBeGreaterThan(1);
    const label = page.locator("label[for='task_trigger_campaign_campaign']");
    expect(await label.textContent()).toBe("Campaign *");
    await box("Campaign").focus();
    const all = await shown("Campaign");
    expect(all.map(([name]) => name)).toEqual(campaigns.map((campaign) => campaign.label));
    await check("06-campaigns-all");
  });
});
