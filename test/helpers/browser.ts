import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { tempDirSync } from "./temp.js";

/** Debian's Chromium (`apt-get install chromium`); never a browser downloaded by a test tool. */
export const CHROMIUM = "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const SCREENSHOTS = join(process.cwd(), "test-output", "screenshots");
/** What a browser showed when a test failed: a screenshot and the page's state in words (.ci/run prints it). */
export const FAILURES = join(process.cwd(), "test-output", "failures");

/**
 * The page's state in words: what has focus, every combobox's text and whether its list is open, the open
 * list, the errors shown and the start of the page's text. A failing e2e under CI load is read from the log
 * of a machine nobody can look at (stop 35: "trade" left in the List box, never seen here).
 */
async function pageState(page: Page): Promise<string> {
  // A string, run in the page: the project's type-check has no DOM library.
  return page.evaluate(`(() => {
    const one = (el) => (el ? el.tagName.toLowerCase() + "#" + el.id + " " + JSON.stringify(el.value ?? "") : "none");
    const boxes = [...document.querySelectorAll("[role=combobox]")].map(
      (box) => "combobox " + box.id + ": " + JSON.stringify(box.value) + " expanded=" + box.getAttribute("aria-expanded"),
    );
    const lists = [...document.querySelectorAll("[role=listbox]")]
      .map((list) => list.innerText.trim())
      .filter(Boolean)
      .map((text) => "open list: " + text.replace(/\\s+/g, " ").slice(0, 300));
    const errors = [...document.querySelectorAll(".error-detail, .problem-message")].map(
      (el) => "error: " + (el.textContent ?? "").slice(0, 200),
    );
    const text = document.body.innerText.replace(/\\s+/g, " ").slice(0, 800);
    return ["url: " + location.href, "focus: " + one(document.activeElement), ...boxes, ...lists, ...errors, "text: " + text].join("\\n");
  })()`);
}

/** The browsers open in this file, for the set-up file's hook that records a failing test's page. */
const open = new Set<Page>();
(globalThis as { recordFailedPages?: (test: string) => Promise<void> }).recordFailedPages = async (test) => {
  if (open.size === 0) return;
  mkdirSync(FAILURES, { recursive: true });
  const name = test.replace(/[^\w-]+/g, "-").slice(0, 80);
  let index = 0;
  for (const page of open) {
    const file = join(FAILURES, `${name}-${index++}`);
    const state = await pageState(page).catch(
      (error: Error) => `the page could not be read: ${error.message}`,
    );
    writeFileSync(`${file}.txt`, `${test} (Node ${process.version})\n${state}\n`);
    await page.screenshot({ path: `${file}.png`, fullPage: true }).catch(() => undefined);
  }
};

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Saves a full-page screenshot of the page (default: the first tab). */
  screenshot(name: string, of?: Page): Promise<void>;
  close(): Promise<void>;
}

/** Headless Chromium with a new, empty profile; screenshots go to test-output/screenshots (kept out of git). */
export async function launchBrowser(): Promise<Browser> {
  const profile = tempDirSync("console-e2e-profile-");
  // Chromium keeps a folder of its own in TMPDIR (`.org.chromium.Chromium.*`) and, exiting after the
  // context has closed, can leave it behind (CI, stop 34): it goes in a folder this helper removes.
  const scratch = tempDirSync("console-e2e-tmp-");
  mkdirSync(SCREENSHOTS, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    env: { ...process.env, TMPDIR: scratch },
    viewport: { width: 1360, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  open.add(page);
  return {
    context,
    page,
    screenshot: async (name, of = page) => {
      // A full page is drawn anew at its whole height: on a loaded two-core CI machine one took past the page's
      // 15 s default (CI, stop 48: console-marketer at 400 px, and the next test's click waited on it).
      await of.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true, timeout: 25_000 });
    },
    close: async () => {
      open.delete(page);
      await context.close();
      for (const dir of [profile, scratch]) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
