import { mkdirSync, rmSync } from "node:fs";
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
  return {
    context,
    page,
    screenshot: async (name, of = page) => {
      await of.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    },
    close: async () => {
      await context.close();
      for (const dir of [profile, scratch]) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
