import http from "node:http";
import { chromium } from "/work/wt/newcomer/node_modules/playwright-core/index.mjs";

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
let ctx, page;
const logs = [];
async function newCtx(width) {
  if (ctx) await ctx.close();
  ctx = await browser.newContext({
    viewport: { width, height: 900 },
    storageState: "/work/trial-s7/console/state.json",
    acceptDownloads: true,
  });
  page = await ctx.newPage();
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") logs.push(`[console ${m.type()}] ${m.text()}`);
  });
  page.on("pageerror", (e) => logs.push(`[pageerror] ${e.message}`));
  await page.goto("http://127.0.0.1:47311/");
  await page.waitForTimeout(800);
}
await newCtx(1280);
const shot = async (name) => {
  await page.screenshot({ path: `/work/trial-s7/console/${name}.png`, fullPage: true });
  return `shot ${name}`;
};
const txt = async (sel = "main") => {
  const el = await page.$(sel);
  return el ? el.innerText() : page.evaluate(() => document.body.innerText);
};
const fields = () =>
  page.evaluate(() =>
    [...document.querySelectorAll("main label, main input, main select, main textarea, main button")]
      .map(
        (e) =>
          `${e.tagName} #${e.id || ""} ${e.type || ""} :: ${(e.tagName === "SELECT" ? [...e.options].map((o) => (o.selected ? "*" : "") + o.text).join(" / ") : e.innerText || e.value || "").slice(0, 120).replace(/\n/g, " | ")}`,
      )
      .join("\n"),
  );
http
  .createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    let out;
    try {
      const fn = new (Object.getPrototypeOf(async () => {}).constructor)(
        "page",
        "ctx",
        "shot",
        "txt",
        "fields",
        "newCtx",
        "browser",
        body,
      );
      out = await fn(
        page,
        ctx,
        shot,
        txt,
        fields,
        async (w) => {
          await newCtx(w);
          return `ctx ${w}`;
        },
        browser,
      );
      if (typeof out !== "string") out = JSON.stringify(out, null, 1);
    } catch (e) {
      out = `ERROR ${e.message}`;
    }
    if (logs.length) out = `${out ?? ""}\n--logs--\n${logs.splice(0).join("\n")}`;
    res.end(String(out ?? ""));
  })
  .listen(47400, "127.0.0.1");
console.log("driver ready");
