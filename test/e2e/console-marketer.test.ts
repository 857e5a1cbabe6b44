/**
 * A marketer's GA4 tasks in the console, in headless Chromium at 1280 and 400 px, without typing an API
 * name: metrics and dimensions picked (or typed) by the names Google Analytics shows, two periods compared,
 * a funnel of four events picked from those the property collects, and the integrations screen. On every
 * screen axe-core finds no serious violation, the page does not scroll sideways, and no word is split
 * across two lines. A refused name is
 * shown under its own field in a person's words. Screenshots go to test-output/screenshots (git-ignored),
 * `marketer-<width>-<screen>.png`.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { Browser } from "../helpers/browser.js";
import { pickChoice } from "../helpers/combobox.js";
import { expectPersonScreen } from "../helpers/person-screen.js";
import { signedInConsole } from "../helpers/signed-in-console.js";

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
/** Names a marketer never types (tool ids, API paths, the agent's column patterns, the quota for agents). */
const AGENT_WORDS = /google_analytics_|marketo_api_call|v1alpha|v1beta\/|<metric>|quota tokens left/;

describe.each([1280, 400])("a marketer's GA4 tasks at %i px", (width) => {
  let browser: Browser;
  let page: Page;

  signedInConsole({ width, timeout: 15_000 }, (signedIn) => {
    ({ browser, page } = signedIn);
  });

  /** The screen as a person sees it: no serious axe violation, no sideways scroll; then its screenshot. */
  const check = async (screen: string) => {
    await expectPersonScreen(page, screen);
    expect({ screen, split: await splitWords() }).toEqual({ screen, split: [] });
    await browser.screenshot(`marketer-${width}-${screen}`);
  };
  /**
   * Words of letters drawn on two lines ("Kow / alski"): a word's text range has one box per line it is
   * drawn on. Words that fit no line of their box at all (none here) would be allowed to break.
   */
  const splitWords = async () =>
    (await page.evaluate(`(() => {
      const split = [];
      const walker = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of node.textContent.matchAll(/[A-Za-z]{4,}/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (lines.size > 1) split.push(match[0]);
        }
      }
      return split;
    })()`)) as string[];
  const run = () => page.getByRole("button", { name: "Run", exact: true }).click();
  const summary = () => page.locator(".results .summary");
  /** What the result shows (its raw JSON, folded away, is the step's answer as an agent gets it). */
  const shown = async () => (await page.locator(".results > :not(details)").allInnerTexts()).join("\n");
  /** A list's Add button (its own, not a nested list's). */
  const add = (list: string) =>
    page.locator(`#${list}`).getByRole("button", { name: "Add", exact: true }).last().click();
  /** Picks a choice of a picker by typing part of the name people know it by, and clicking it. */
  const pick = (field: string, typed: string, option: RegExp) => pickChoice(page, field, typed, option);

  it("opens Run Reports with metrics to pick by their UI names, grouped, and no funnel fields", async () => {
    await page.getByLabel("Search tool steps").fill("report");
    await page.getByRole("button", { name: /^Run Reports/ }).click();
    await expect.poll(() => page.getByLabel("Property").inputValue(), { timeout: 15_000 }).toMatch(/^\d+$/);
    // The funnel's fields wait behind their switch: no required steps in a report form.
    expect(await page.locator("#root_funnel_steps").count()).toBe(0);
    // The fields' help speaks to a person: no API names, JSON shapes or methods written for an agent.
    const help = (await page.locator(".runner form .field-description").allInnerTexts()).join("\n");
    expect(help).toMatch(/What to count: type part of a name as Google Analytics shows it/);
    expect(help).toMatch(/The period to report on/);
    expect(help).not.toMatch(
      /API names?|\{start_date|runFunnelReport|runRealtimeReport|lastNdays|FilterExpression/,
    );
    await add("root_metrics");
    const metric = page.getByRole("combobox", { name: "Metric 1", exact: true });
    await metric.fill("sessions");
    const list = page.locator(`#${await metric.getAttribute("aria-controls")}`);
    expect(await list.locator(".combo-group").first().textContent()).toBeTruthy();
    // Listed by UI name, the API name beside it; "Sessions" (the very name typed) first in its group.
    await expect.poll(() => list.getByRole("option").first().textContent()).toBe("Sessions");
    await check("01-metric-picker");
    await metric.press("Escape");
  });

  it("shows a misspelt name under its own field in a person's words, and accepts a UI name typed", async () => {
    const metric = page.getByRole("combobox", { name: "Metric 1", exact: true });
    await metric.fill("Sesions");
    await add("root_dimensions");
    const dimension = page.getByRole("combobox", { name: "Dimension 1", exact: true });
    await dimension.fill("Contry");
    await dimension.press("Tab");
    await run();
    // The error list of the field's own group (not of the list around it).
    const under = (id: string) =>
      page
        .locator(`#${id}`)
        .locator("xpath=ancestor::div[contains(@class,'form-group')][1]")
        .locator(".error-detail");
    await expect.poll(() => under("root_metrics_0").textContent()).toMatch(/"Sesions" is not a metric/);
    await expect.poll(() => under("root_dimensions_0").textContent()).toMatch(/"Contry" is not a dimension/);
    expect(await page.locator(".problem-message").textContent()).toMatch(
      /^2 fields to fix\. Metric 1: .*; Dimension 1: /,
    );
    expect(await page.locator(".problem").textContent()).not.toMatch(AGENT_WORDS);
    await check("02-field-errors");
    // "Sessions" picked, "Country" typed as GA names it: both are taken, and the errors go.
    await pick("Metric 1", "Sessions", /^Sessions$/);
    await dimension.fill("Country");
    await dimension.press("Tab");
    expect(await dimension.inputValue()).toBe("Country");
    await run();
    await expect.poll(() => summary().textContent()).toMatch(/^Report on Retail Web Store/);
    expect(await page.locator(".error-detail").count()).toBe(0);
  });

  it("compares two periods: columns by UI name (API name on hover), grouped bars, no agent words", async () => {
    await pick("Dimension 1", "channel", /^Session default channel group/);
    await add("root_date_ranges");
    await add("root_date_ranges");
    for (const [index, [start, end]] of [
      [day(28), day(1)],
      [day(56), day(29)],
    ].entries()) {
      await page.getByLabel(`Period ${index + 1}`).selectOption({ label: "Custom dates…" });
      await page.locator(`#root_date_ranges_${index}_start_date`).fill(start as string);
      await page.locator(`#root_date_ranges_${index}_end_date`).fill(end as string);
    }
    await run();
    // The headline in plain words (the step's own summary, for an agent, is under Details).
    await expect
      .poll(() => summary().textContent())
      .toMatch(/^Sessions went from [\d,]+ in .+ to [\d,]+ in /);
    expect(await shown()).not.toMatch(AGENT_WORDS);
    const headers = page.locator(".results table[aria-label='Records'] thead button");
    const titles = await headers.allTextContents();
    expect(titles[0]).toBe("Session default channel group");
    // Each period's column says its days ("4 Nov – 1 Dec 2026"), not GA's date_range_0.
    const periods = titles.filter((title) =>
      /^\d{1,2} [A-Z][a-z]{2}( \d{4})? – \d{1,2} [A-Z][a-z]{2} \d{4}( [▲▼])?$/.test(title),
    );
    expect(periods, JSON.stringify(titles)).toHaveLength(2);
    expect(await headers.first().getAttribute("title")).toBe("sessionDefaultChannelGroup");
    // Thousands separators in the page (the sandbox's channels have thousands of sessions).
    expect(await page.locator(".results td.number").allTextContents()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\d{1,3},\d{3}$/)]),
    );
    const chart = page.locator(".results figure.chart");
    await chart.waitFor();
    expect(await chart.getAttribute("data-kind")).toBe("bar");
    // The legend names the periods with their dates: the title does not repeat them.
    expect(await chart.locator("[role=img]").getAttribute("aria-label")).toBe(
      "Chart: Sessions by Session default channel group",
    );
    await check("03-comparison");
  });

  it("runs a funnel of four events picked from those the property collects, with a funnel chart", async () => {
    await page.getByRole("checkbox", { name: "Funnel" }).check();
    // The report's own fields go while the funnel is on: nothing to clear by hand.
    await expect.poll(() => page.locator("#root_metrics").count()).toBe(0);
    // GA4's documented events in words, the code beside them; found by either (trial s5, finding 5).
    const events = [
      ["session", "Session start (session_start)"],
      ["view_it", "View item (view_item)"],
      ["cart", "Add to cart (add_to_cart)"],
      ["Purchase", "Purchase (purchase)"],
    ] as const;
    for (const [index, [typed, words]] of events.entries()) {
      if (index >= 2) await add("root_funnel_steps");
      const box = page.getByRole("combobox", { name: `Step ${index + 1}`, exact: true });
      await box.fill(typed);
      // Each event with how often the property collected it over the period.
      const named = words.replace(/[()]/g, "\\$&");
      const option = page.getByRole("option", { name: new RegExp(`^${named} [\\d,]+ events$`) });
      await option.click();
      await expect.poll(() => box.inputValue()).toBe(words);
    }
    // The open funnel's checkbox says what it changes.
    expect(await page.locator(".runner form").innerText()).toMatch(
      /Ticked: people may join at any step\. Unticked: only people who did step 1 are counted/,
    );
    // A funnel reads one period (Run Reports refuses one over several): the periods field says so before
    // Run, offers no second period, and the second period of the comparison goes as a marketer removes it.
    const periodsHelp = page.locator("#root_date_ranges__help");
    expect(await periodsHelp.textContent()).toMatch(
      /^A funnel covers one period: remove Period 2 before Run/,
    );
    expect(await page.locator("#root_date_ranges").getByRole("button", { name: "Add" }).count()).toBe(0);
    await check("04-funnel-two-periods");
    await page.locator("#root_date_ranges").getByRole("button", { name: "Remove" }).last().click();
    await expect.poll(() => periodsHelp.textContent()).toMatch(/^A funnel covers one period\. To compare/);
    expect(await page.locator("#root_date_ranges").getByRole("button", { name: "Add" }).count()).toBe(0);
    await check("04-funnel-form");
    await run();
    await expect.poll(() => summary().textContent()).toMatch(/^Funnel report on Retail Web Store/);
    await expect.poll(() => page.locator(".results figure.chart").getAttribute("data-kind")).toBe("funnel");
    const headers = await page.locator(".results table[aria-label='Records'] thead button").allTextContents();
    expect(headers).toEqual(expect.arrayContaining(["Step", "Users", "Went on to next step (%)"]));
    // The steps in words in the table, the chart and the headline.
    expect(await page.locator(".results table[aria-label='Records'] tbody").innerText()).toMatch(
      /Add to cart \(add_to_cart\)/,
    );
    expect(await summary().textContent()).toMatch(/who did Session start \(session_start\)/);
    expect(await shown()).not.toMatch(AGENT_WORDS);
    await check("05-funnel-result");
  });

  it("covers the funnel's one period as chosen: with none left, Add offers the presets (Last 30 days)", async () => {
    // Regression: in funnel mode an empty periods field had no Add, so a funnel only covered the default 7 days.
    await page.locator("#root_date_ranges").getByRole("button", { name: "Remove" }).last().click();
    await expect.poll(() => page.locator("#root_date_ranges_0").count()).toBe(0);
    await add("root_date_ranges");
    await page.getByLabel("Period 1").selectOption({ label: "Last 30 days" });
    // One period chosen: no second one offered.
    expect(await page.locator("#root_date_ranges").getByRole("button", { name: "Add" }).count()).toBe(0);
    await check("07-funnel-period");
    await run();
    await expect.poll(() => summary().textContent()).toMatch(/^Funnel report on Retail Web Store .* for \d/);
    // The days in the page's one style of dates (trial s9, finding 5): "for 2 Nov – 1 Dec 2026,".
    const [, from = "", end = ""] =
      /for (\d{1,2}(?: [A-Z][a-z]{2})?(?: \d{4})?)[\s\u2009]–[\s\u2009](\d{1,2} [A-Z][a-z]{2} \d{4}),/.exec(
        (await summary().textContent()) ?? "",
      ) ?? [];
    // A start in the end's month or year leaves them to the end ("1 – 30 Nov 2026", "2 Nov – 1 Dec 2026").
    const [, month, year] = end.split(" ");
    const start =
      from.split(" ").length === 1
        ? `${from} ${month} ${year}`
        : from.split(" ").length === 2
          ? `${from} ${year}`
          : from;
    // The result states the 30 days chosen (yesterday and the 29 days before it), not the default 7.
    expect((Date.parse(`${end} UTC`) - Date.parse(`${start} UTC`)) / 86_400_000).toBe(29);
    await check("08-funnel-period-result");
  });

  it("shows the integrations screen", async () => {
    await page.getByRole("link", { name: "Integrations" }).click();
    await page.getByRole("article", { name: "Google account sandbox" }).waitFor();
    await check("06-integrations");
  });
});
