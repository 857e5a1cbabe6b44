/**
 * The step forms as a marketer uses them, in headless Chromium: ready examples fill the form, fields
 * carry their titles, the key/value editor has labelled empty rows, the method starts on GET, the GA
 * property and Analytics account are picked from the connected account, metrics are picked by their UI
 * names from the property's metadata with their descriptions, periods are a preset select or dates, and a
 * field's error goes as soon as its value is valid. Screenshots go to test-output/screenshots.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, launchBrowser } from "../helpers/browser.js";
import { type ConsoleFixture, startConsoleFixture } from "../helpers/console.js";

describe("the step forms in a browser", () => {
  let fixture: ConsoleFixture;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    fixture = await startConsoleFixture();
    browser = await launchBrowser();
    page = browser.page;
    page.setDefaultTimeout(10_000);
    await page.goto(fixture.console.loginUrl(fixture.base));
    await page.locator(".workspace").waitFor();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
  });

  const summary = () => page.locator(".results .summary");
  /** The text of a select's chosen option (the form library's option values are indexes). */
  const chosen = (id: string) => page.locator(`#${id} option:checked`).textContent();
  const run = () => page.getByRole("button", { name: "Run", exact: true }).click();
  const open = async (search: string, step: RegExp) => {
    await page.getByLabel("Search tool steps").fill(search);
    await page.getByRole("button", { name: step }).click();
    await page.getByRole("button", { name: "Run", exact: true }).waitFor();
  };

  it("opens the Marketo form with titles, GET chosen, an empty labelled row and no spelled-out reference URL", async () => {
    await open("marketing automation", /Marketo API Call/);
    expect(await chosen("root_method")).toBe("GET");
    expect(await page.getByLabel("Endpoint").inputValue()).toBe("");
    const rows = page.locator("fieldset.key-value");
    expect(await rows.locator("legend").textContent()).toBe("Query parameters");
    expect(await rows.getByLabel("Name", { exact: true }).inputValue()).toBe("");
    expect(await rows.getByLabel("Value", { exact: true }).inputValue()).toBe("");
    expect(await page.getByLabel("Read all pages").count()).toBe(1);
    expect(await page.getByLabel("Most pages").count()).toBe(1);
    const description = await page.locator(".runner .description").textContent();
    expect(description).not.toMatch(/https?:/);
    expect(await page.getByRole("link", { name: "Reference" }).getAttribute("href")).toMatch(/^https:\/\//);
    expect(await page.locator("body").textContent()).not.toContain("newKey");
    await browser.screenshot("forms-01-marketo-form");
  });

  it("looks up a lead by email from the example, without typing an API path or name", async () => {
    await page.getByRole("button", { name: "Look up a lead by email" }).click();
    expect(await page.getByLabel("Endpoint").inputValue()).toBe("/rest/v1/leads.json");
    const rows = page.locator("fieldset.key-value .kv-row");
    expect(await rows.nth(0).getByLabel("Name", { exact: true }).inputValue()).toBe("filterType");
    expect(await rows.nth(1).getByLabel("Value", { exact: true }).inputValue()).toBe("lead7@example.com");
    await run();
    // The headline in words; the step's own line and the call it made under Details.
    await expect.poll(() => summary().textContent()).toBe("Marketo returned 1 record.");
    await page.locator(".results details.result-details summary").click();
    const details = page.locator(".results details.result-details");
    expect(await details.locator("p").textContent()).toMatch(/^GET \/rest\/v1\/leads\.json: 1 record/);
    expect(await details.locator("pre").textContent()).toBe(
      "GET /rest/v1/leads.json?filterType=email&filterValues=lead7@example.com",
    );
    await browser.screenshot("forms-02-lead-by-email");
  });

  it("adds leads to a static list and triggers a campaign from the examples", async () => {
    await page.getByRole("button", { name: "Add leads to a static list" }).click();
    expect(await page.locator(".example-note").textContent()).toMatch(/list's ID/);
    expect(await chosen("root_method")).toBe("POST");
    await run();
    await expect.poll(() => summary().textContent()).toMatch(/^Marketo answered for 2 records: /);
    expect(await page.locator(".results details.result-details p").textContent()).toMatch(
      /^POST \/rest\/v1\/lists\/1001\/leads\.json: Marketo answered 2 results: /,
    );
    await page.getByRole("button", { name: "Trigger a smart campaign" }).click();
    await run();
    await expect
      .poll(() => summary().textContent())
      .toMatch(
        /^Campaign 1001 requested for 1 lead\. Marketo queues the request, then runs the campaign's flow/,
      );
    expect(fixture.marketo.campaignRuns().at(-1)?.leadIds).toEqual([7]);
  });

  it("refuses an endpoint the pattern refuses before sending, and clears the error as soon as it is fixed", async () => {
    await page.getByRole("button", { name: "Look up a lead by email" }).click();
    const calls = fixture.marketo.stats().apiCalls;
    await page.getByLabel("Endpoint").fill("/rest/v1/leads.json?filterType=email");
    await run();
    const field = page.locator(".form-group", { has: page.locator("#root_endpoint") });
    await expect
      .poll(() => field.locator(".error-detail").textContent())
      .toMatch(/use a path beginning with \/rest\//);
    expect(await page.locator(".problem-message").textContent()).toMatch(/^Endpoint: use a path/);
    expect(fixture.marketo.stats().apiCalls).toBe(calls);
    await browser.screenshot("forms-03-endpoint-pattern");
    await page.getByLabel("Endpoint").fill("/rest/v1/leads.json");
    await expect.poll(() => field.locator(".error-detail").count()).toBe(0);
    expect(await page.locator(".problem").count()).toBe(0);
  });

  it("runs the channel comparison with the property picked from the connected account", async () => {
    await open("analytics", /^Run Reports/);
    const property = page.getByLabel("Property");
    await expect.poll(() => property.inputValue()).toBe("412345671");
    const options = await property.locator("option").allTextContents();
    expect(options.length).toBeGreaterThan(1);
    expect(options.every((option) => /\(\d+\)$/.test(option))).toBe(true);
    await page.getByRole("button", { name: "Sessions by channel, last 28 days vs the 28 before" }).click();
    // Periods as a person picks them (trial s9, finding 6): a preset, and real dates for the one before.
    expect(await page.getByLabel("Period 1").inputValue()).toBe("last28days");
    expect(await page.getByLabel("Period 2").inputValue()).toBe("custom");
    expect(await page.locator("#root_date_ranges_1_start_date").inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Sort by is a choice of the report's columns by name, and a direction (trial s9, finding 7).
    const sort = page.getByLabel("Sort by", { exact: true });
    expect(await page.locator("select#root_order_by").count()).toBe(1);
    expect(await sort.locator("option:checked").textContent()).toBe("Sessions");
    expect(await page.getByLabel("Order", { exact: true }).locator("option:checked").textContent()).toBe(
      "largest first",
    );
    // The filter is a text box: no select offering "text" or "JSON".
    expect(await page.getByLabel("Filter").getAttribute("type")).toBe("text");
    expect(await page.locator("select option", { hasText: /^text$/ }).count()).toBe(0);
    await run();
    // Two periods compared: the headline in a person's words, the step's own summary under Details.
    await expect
      .poll(() => summary().textContent(), { timeout: 15_000 })
      .toMatch(
        /^Sessions went from [\d,]+ in the 28 days before \(.+?\) to [\d,]+ in the last 28 days \(.+?\), [+−]\d/,
      );
    expect(await page.locator(".results .result-details > p").textContent()).toMatch(
      /^Report on Retail Web Store \(properties\/412345671\) .*: \d+ rows/,
    );
    await browser.screenshot("forms-04-channel-comparison");
  });

  it("offers the property's metrics by their UI names as the person types, grouped, and keeps the API name", async () => {
    const metric = page.getByRole("combobox", { name: "Metric 1" });
    // The example's metric reads as Google Analytics names it.
    expect(await metric.inputValue()).toBe("Sessions");
    await metric.fill("active");
    const groups = await page
      .locator(`#${await metric.getAttribute("aria-controls")} .combo-group`)
      .allTextContents();
    expect(groups).toEqual(expect.arrayContaining(["User"]));
    // Found by either name: "activeUsers" is the API name of "Active users".
    await metric.fill("activeUsers");
    // As a person does: pick once the list shows what was typed (the exact name first), not while the
    // list of "active" is still being replaced (a click then can land as the list changes under it).
    const options = page.locator(`#${await metric.getAttribute("aria-controls")} [role="option"]`);
    await expect.poll(() => options.first().textContent()).toBe("Active users");
    // The API name only on hover, not in the list's text (trial s9, finding 8).
    expect(await options.first().getAttribute("title")).toBe("activeUsers");
    await options.first().click();
    // The picker may be drawn again after the pick and get its choices a moment later: the box then shows
    // the label, not the API name (CI, stop 35, kept "activeUsers": console/src/choices.ts typedFor).
    await expect.poll(() => metric.inputValue()).toBe("Active users");
    await expect
      .poll(() => page.getByTestId("root_metrics_0-about").textContent())
      .toMatch(/^Active users: /);
    await browser.screenshot("forms-05-metric-autocomplete");
  });

  it("picks a period from the preset select, in words", async () => {
    await page.getByLabel("Period 2").selectOption({ label: "Last 28 days" });
    expect(await page.getByLabel("Period 2").inputValue()).toBe("last28days");
    expect(await page.locator("#root_date_ranges_1_start_date").count()).toBe(0);
    await page.getByLabel("Period 1").selectOption({ label: "Custom dates…" });
    expect(await page.locator("#root_date_ranges_0_start_date").getAttribute("type")).toBe("date");
  });

  it("creates a property in an Analytics account picked from the connected account", async () => {
    await open("analytics", /^Create properties/);
    // The account that may edit (the form starts on the first label, "reader", which may only read).
    await page.locator("#root_account").selectOption({ label: "sandbox" });
    const account = page.getByLabel("Analytics account");
    await expect.poll(() => account.inputValue()).toMatch(/^accounts\/\d+$/);
    await page.getByRole("button", { name: "Create a property for a web shop" }).click();
    expect(await page.getByLabel("Property name").inputValue()).toBe("Example shop");
    await run();
    await expect.poll(() => summary().textContent(), { timeout: 15_000 }).toMatch(/Example shop/);
    await browser.screenshot("forms-06-create-property");
  });
});
