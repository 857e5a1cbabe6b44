/**
 * The set-up the Marketo task e2e files share (test/e2e/console-marketo-*.test.ts): the console over the
 * sandboxes in headless Chromium at one width, and a marketer's moves and checks on its task forms. Each
 * file that calls it inside its `describe` gets a browser and a console of its own.
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";
import type { Browser } from "./browser.js";
import { pickChoice } from "./combobox.js";
import type { ConsoleFixture } from "./console.js";
import { expectPersonScreen } from "./person-screen.js";
import { signedInConsole } from "./signed-in-console.js";

/**
 * Names a marketer never types or reads in a result (the tool's id, its agent-only parameters), nor in
 * its headline: REST paths, calls spent, pages read.
 */
export const AGENT_WORDS = /marketo_api_call|run_to_completion|next_cursor|query_parameters|max_items/;
const HEADLINE_AGENT_WORDS = /\/rest\/|\/bulk\/|\bv1\b|\bcalls?\b|\bpages?\b|quota|export [0-9a-f-]{8,}/i;
/** The sandbox's lead the tasks act on (found by email first, then added, triggered and updated). */
export const LEAD_ID = "7";

export interface MarketoTaskPage {
  page(): Page;
  fixture(): ConsoleFixture;
  /** The screen as a person sees it: no serious axe violation, no sideways scroll; then its screenshot. */
  check(screen: string): Promise<void>;
  /** Searches the bar as a marketer words the task, and opens the task's form. */
  open(typed: string, task: string): Promise<void>;
  restCall(): ReturnType<Page["locator"]>;
  run(): Promise<void>;
  summary(): ReturnType<Page["locator"]>;
  /** The headline, free of agent words, and the step's own line and REST call under Details. */
  headline(expected: RegExp, call: RegExp): Promise<void>;
  /** The result's text, its Details left out. */
  shown(): Promise<string>;
  pick(field: string, typed: string, option: RegExp): ReturnType<typeof pickChoice>;
}

export function marketoTaskPage(width: number): MarketoTaskPage {
  let fixture: ConsoleFixture;
  let browser: Browser;
  let page: Page;

  signedInConsole({ width, timeout: 20_000 }, (signedIn) => {
    ({ fixture, browser, page } = signedIn);
  });

  const summary = () => page.locator(".results .summary");
  return {
    page: () => page,
    fixture: () => fixture,
    check: async (screen) => {
      await expectPersonScreen(page, screen);
      await browser.screenshot(`marketo-${width}-${screen}`);
    },
    open: async (typed, task) => {
      await page.getByLabel("Search tool steps").fill(typed);
      await page
        .getByRole("list", { name: "Tasks" })
        .getByRole("button", { name: new RegExp(`^${task}`) })
        .click();
      await page.getByRole("region", { name: task }).waitFor();
    },
    restCall: () => page.locator(".rest-call pre"),
    run: () => page.getByRole("button", { name: "Run", exact: true }).click(),
    summary,
    headline: async (expected, call) => {
      await expect.poll(() => summary().textContent(), { timeout: 60_000 }).toMatch(expected);
      expect(await summary().textContent()).not.toMatch(HEADLINE_AGENT_WORDS);
      const details = page.locator(".results details.result-details");
      expect(await details.getAttribute("open")).toBeNull();
      await details.locator("summary").click();
      expect(await details.locator("p").textContent()).toMatch(/\S/);
      expect(await details.locator("pre").textContent()).toMatch(call);
    },
    shown: async () => (await page.locator(".results > :not(details)").allInnerTexts()).join("\n"),
    pick: (field, typed, option) => pickChoice(page, field, typed, option),
  };
}
