import { chromium } from "/work/wt/newcomer/node_modules/playwright-core/index.mjs";

const url = process.argv[2];
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await ctx.newPage();
await page.goto(url);
await page.waitForTimeout(1500);
console.log(page.url());
await page.screenshot({ path: "/work/trial-s7/console/start-1280-1.png", fullPage: true });
await ctx.storageState({ path: "/work/trial-s7/console/state.json" });
console.log(await page.evaluate(() => document.body.innerText));
await browser.close();
