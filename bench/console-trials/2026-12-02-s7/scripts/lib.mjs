import { chromium } from "/work/wt/newcomer/node_modules/playwright-core/index.mjs";
export async function open(width = 1280) {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  const ctx = await browser.newContext({
    viewport: { width, height: 900 },
    storageState: "/work/trial-s7/console/state.json",
    acceptDownloads: true,
  });
  const page = await ctx.newPage();
  page.on("console", (m) => {
    if (m.type() === "error") console.log("[console error]", m.text());
  });
  page.on("pageerror", (e) => console.log("[pageerror]", e.message));
  await page.goto("http://127.0.0.1:47311/");
  await page.waitForTimeout(800);
  return { browser, ctx, page };
}
export async function shot(page, name) {
  await page.screenshot({ path: `/work/trial-s7/console/${name}.png`, fullPage: true });
  console.log("shot", name);
}
export async function text(page, sel = "main") {
  const el = await page.$(sel);
  return el ? el.innerText() : page.evaluate(() => document.body.innerText);
}
