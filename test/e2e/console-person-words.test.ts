/**
 * The console in a marketer's words (issue 28, trial of 2026-12-02), in headless Chromium at 1280 and
 * 400 px: the bar finds a form for the words a marketer searches ("compare", "funnel", "schedule",
 * "export", "CSV", "add to list"); the chosen form comes into view on a phone; Run Reports' filter takes
 * the names the pickers show ("Country = Germany"), refuses an unknown one under the filter with the
 * nearest names, and so does Sort by ("-Sessions"), the report's table has the result's width (the chart below it, not beside it), and its
 * CSV is named for what it holds and headed with the table's names; Run Reports' description has no
 * developer words; a picker's open
 * list closes on a press outside it. On every screen axe-core finds no serious violation and the page does
 * not scroll sideways. Screenshots: test-output/screenshots, `words-<width>-<screen>.png`.
 */
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { Browser } from "../helpers/browser.js";
import { pickChoice } from "../helpers/combobox.js";
import { expectPersonScreen } from "../helpers/person-screen.js";
import { signedInConsole } from "../helpers/signed-in-console.js";

describe.each([1280, 400])("the console in a marketer's words at %i px", (width) => {
  let browser: Browser;
  let page: Page;

  signedInConsole({ width, height: 800, timeout: 20_000 }, (signedIn) => {
    ({ browser, page } = signedIn);
  });

  /** The screen as a person sees it: no serious axe violation, no sideways scroll; then its screenshot. */
  const check = async (screen: string) => {
    await expectPersonScreen(page, screen);
    await browser.screenshot(`words-${width}-${screen}`);
  };
  const search = (typed: string) => page.getByLabel("Search tool steps").fill(typed);
  const hit = (list: "Tasks" | "Search results", title: string) =>
    page.getByRole("list", { name: list }).getByRole("button", { name: new RegExp(`^${title}`) });
  const pick = (field: string, typed: string, option: RegExp) => pickChoice(page, field, typed, option);

  const add = (list: string) =>
    page.locator(`#${list}`).getByRole("button", { name: "Add", exact: true }).last().click();

  it("finds a form for each word a marketer searches, and says what cannot be scheduled", async () => {
    const wanted: [string, "Tasks" | "Search results", string][] = [
      ["compare", "Search results", "Run Reports"],
      ["funnel", "Search results", "Run Reports"],
      ["schedule", "Search results", "Run Reports"],
      ["export", "Tasks", "Export leads or activities"],
      ["CSV", "Tasks", "Export leads or activities"],
      ["CSV", "Search results", "Run Reports"],
      ["add to list", "Tasks", "Add or remove leads on a list"],
    ];
    for (const [typed, list, title] of wanted) {
      await search(typed);
      await expect.poll(() => hit(list, title).count(), { message: `"${typed}" finds ${title}` }).toBe(1);
    }
    // A report sent on a schedule, however asked (trial s5, finding 9), is answered as "schedule" is.
    const answer = (title: string) =>
      page.locator(".search [role='status']").getByRole("region", { name: title });
    for (const typed of ["schedule a weekly report", "email every Monday", "send me every week"]) {
      await search(typed);
      await expect
        .poll(() => answer("Scheduled reports").locator("p").textContent(), { message: typed })
        .toMatch(/^Reports cannot be scheduled here: run the report with Run Reports, then download it/);
      await expect.poll(() => hit("Search results", "Run Reports").count()).toBe(1);
    }
    await check("01-schedule");
    // Editing an email is done in Marketo: said in words, not only the REST form (finding 9).
    for (const typed of ["edit email subject", "change email content", "edit an email"]) {
      await search(typed);
      await expect
        .poll(() => answer("Editing an email").locator("p").textContent(), { message: typed })
        .toMatch(/^An email's subject and content are edited in Marketo itself: Design Studio → Emails/);
      expect(await answer("Scheduled reports").count()).toBe(0);
    }
    await check("01b-edit-email");
  });

  it("brings the chosen form into view", async () => {
    await search("report");
    // The hit's summary too (trial s7, finding 15: "Runs a Google Analytics 4 report (runReport; …").
    await expect.poll(() => hit("Search results", "Run Reports").textContent()).toMatch(/report \(realtime/);
    await hit("Search results", "Run Reports").click();
    const form = page.getByRole("region", { name: "Run Reports" });
    await form.waitFor();
    // Its description in a person's words: no API method, quota or API version (trial C02-0).
    expect(await form.locator(".description").textContent()).not.toMatch(
      /runReport|quota|v1beta|records read/,
    );
    // The box's top, relative to the viewport: within its upper half.
    await expect.poll(async () => Math.round((await form.boundingBox())?.y ?? -1)).toBeLessThan(400);
    expect((await form.boundingBox())?.y).toBeGreaterThanOrEqual(0);
  });

  it("closes a picker's list on a press outside it", async () => {
    await expect.poll(() => page.getByLabel("Property").inputValue()).toMatch(/^\d+$/);
    await add("root_metrics");
    const metric = page.getByRole("combobox", { name: "Metric 1", exact: true });
    await metric.fill("sess");
    const list = page.locator(`#${await metric.getAttribute("aria-controls")}`);
    await expect.poll(() => list.getByRole("option").count()).toBeGreaterThan(0);
    // Only the press: the list goes before the button is released (downshift waits for the release).
    const heading = await page.getByRole("heading", { name: "Run Reports" }).boundingBox();
    await page.mouse.move((heading?.x ?? 0) + 5, (heading?.y ?? 0) + 5);
    await page.mouse.down();
    await expect.poll(() => list.getByRole("option").count()).toBe(0);
    await page.mouse.up();
    expect(await metric.getAttribute("aria-expanded")).toBe("false");
  });

  it("runs a report filtered with the names the pickers show, after refusing an unknown one under the filter", async () => {
    await pick("Metric 1", "Sessions", /^Sessions$/);
    await add("root_dimensions");
    await pick("Dimension 1", "Country", /^Country$/);
    const filter = page.getByLabel("Filter", { exact: true });
    await filter.fill("Contry = Germany");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const error = page.locator("#root_filter").locator("xpath=ancestor::*[contains(@class,'form-group')][1]");
    await expect
      .poll(() => error.locator(".error-detail").textContent())
      .toBe(
        'No field is named "Contry". Did you mean "Country"? Start each condition with a field\'s name as the lists show it.',
      );
    await check("02-filter-refused");
    await filter.fill("Country = Germany");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const table = page.locator(".results table").first();
    await expect.poll(() => table.locator("tbody tr").count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await page.locator(".problem").count()).toBe(0);
    const countries = await table.locator("tbody tr td:first-child").allInnerTexts();
    expect(new Set(countries)).toEqual(new Set(["Germany"]));
    // The table has the result's width: the chart is below it, not beside it (trial C01-7).
    const [tableBox, resultsBox] = await Promise.all([
      page.locator(".results .table-wrap").first().boundingBox(),
      page.locator(".results").boundingBox(),
    ]);
    expect((tableBox?.width ?? 0) / (resultsBox?.width ?? 1)).toBeGreaterThan(0.8);
    await check("03-filtered-report");
    // The CSV is named for what it holds and headed as the table (trial C05); the JSON keeps the API names.
    const save = async (link: string) => {
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: link }).click(),
      ]);
      return {
        name: download.suggestedFilename(),
        text: readFileSync((await download.path()) as string, "utf8"),
      };
    };
    const csv = await save("Download CSV");
    expect(csv.name).toMatch(/^sessions-by-country-filtered-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, first] = csv.text.split("\r\n");
    expect(header).toBe("Country,Sessions");
    expect(first).toMatch(/^Germany,\d+$/);
    const json = JSON.parse((await save("Download JSON")).text) as Record<string, unknown>[];
    expect(Object.keys(json[0] ?? {})).toEqual(["country", "sessions"]);
  });

  it("sorts by the report's columns as the pickers name them, after refusing one under Sort by", async () => {
    await page.getByLabel("Filter", { exact: true }).fill("");
    // A sort typed by name still works: "Type it instead" turns the choice into the text box.
    await page.getByLabel("Sort by", { exact: true }).selectOption({ label: "Type it instead…" });
    const sort = page.getByLabel("Sort by", { exact: true });
    // Trial C04: "-Views" was refused, and the refusal listed API names.
    await sort.fill("-Sesions");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const error = page
      .locator("#root_order_by")
      .locator("xpath=ancestor::*[contains(@class,'form-group')][1]");
    await expect
      .poll(() => error.locator(".error-detail").textContent())
      .toBe(
        '"Sesions" is not a column of this report. Did you mean "Sessions"? Sort by one of its columns: "Sessions", "Country".',
      );
    await check("04-sort-refused");
    await sort.fill("-SESSIONS");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const table = page.locator(".results table").first();
    await expect.poll(() => table.locator("tbody tr").count(), { timeout: 30_000 }).toBeGreaterThan(1);
    expect(await page.locator(".problem").count()).toBe(0);
    const sessions = (await table.locator("tbody tr td:nth-child(2)").allInnerTexts()).map((cell) =>
      Number(cell.replace(/\D/g, "")),
    );
    expect(sessions).toEqual([...sessions].sort((a, b) => b - a));
    await check("05-sorted-report");
  });
});
