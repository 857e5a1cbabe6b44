/**
 * Each download's words count what its file holds (trial s10, finding 9: "Download JSON (the 1 record)"
 * above a table of 2 leads: Marketo's answer to Request Campaign is the campaign alone, and the downloads
 * were that answer while the table showed the leads). In headless Chromium at 1280 and 400 px: a campaign
 * triggered for two leads, and a list's members; each time the count in the downloads' words is the CSV's
 * rows, the JSON's items and the table's rows.
 */
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { marketoTaskPage } from "../helpers/marketo-task-page.js";

describe.each([1280, 400])("download counts at %i px", { timeout: 90_000 }, (width) => {
  const task = marketoTaskPage(width);
  const { check, open, run, summary, pick } = task;
  let page: Page;
  beforeAll(() => {
    page = task.page();
  });

  const save = async (link: string) => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.locator(".results .downloads").getByRole("link", { name: link }).click(),
    ]);
    return {
      name: download.suggestedFilename(),
      text: readFileSync((await download.path()) as string, "utf8"),
    };
  };
  /** The count the downloads' words give ("all 2 leads", "the 1 record"), and each file's rows. */
  const counts = async () => {
    const words = (await page.locator(".results .downloads .muted").textContent()) ?? "";
    const said = Number(/(\d[\d,]*)/.exec(words)?.[1]?.replace(/,/g, "") ?? Number.NaN);
    const csv = await save("Download CSV");
    const json = JSON.parse((await save("Download JSON")).text) as unknown[];
    return {
      words,
      said,
      csv: (parse(csv.text, { columns: true }) as unknown[]).length,
      json: json.length,
      csvName: csv.name,
    };
  };

  it("counts a campaign's leads in its downloads' words as the files and the table hold them", async () => {
    await open("trigger campaign", "Trigger a smart campaign");
    await pick("Campaign", "welcome", /^Send Welcome Email\s*can be requested$/);
    await page.getByRole("textbox", { name: /^Leads\W*$/ }).fill("7, 8");
    await run();
    const confirm = page.getByRole("alertdialog", { name: "Confirm the request" });
    await confirm.getByRole("button", { name: "Confirm" }).click();
    await expect.poll(() => summary().textContent(), { timeout: 60_000 }).toMatch(/requested for 2 leads/);
    const table = page.locator(".results table[aria-label='Records'] tbody tr");
    await expect.poll(() => table.count()).toBe(2);
    const found = await counts();
    expect(found).toEqual({
      words: "(all 2 leads)",
      said: 2,
      csv: 2,
      json: 2,
      csvName: expect.stringMatching(/^leads-\d{4}-\d{2}-\d{2}\.csv$/),
    });
    await check("download-counts-campaign");
  });

  it("counts a list's members in its downloads' words as the files hold them", async () => {
    await open("list members", "Show list members");
    await pick("List", "beta", /^Beta Testers/);
    await run();
    await expect
      .poll(() => summary().textContent(), { timeout: 60_000 })
      .toMatch(/^Beta Testers has [\d,]+ members/);
    const members = Number(
      /has ([\d,]+) members/.exec((await summary().textContent()) ?? "")?.[1]?.replace(/,/g, ""),
    );
    const found = await counts();
    expect({ said: found.said, csv: found.csv, json: found.json }).toEqual({
      said: members,
      csv: members,
      json: members,
    });
  });
});
