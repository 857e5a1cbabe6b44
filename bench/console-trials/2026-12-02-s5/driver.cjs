// Persistent driver: one Chromium, commands POSTed as JS bodies (async, with page/ctx/helpers in scope)
const { chromium } = require("/work/wt/trial/node_modules/playwright-core");
const http = require("node:http");
const fs = require("node:fs");
const AXE = fs.readFileSync("/work/wt/trial/node_modules/axe-core/axe.min.js", "utf8");
const SHOTS = "/work/wt/trial-out/newcomer/shots/";
let browser, ctx, page;
const checks = [];
async function setWidth(w) {
  await page.setViewportSize({ width: w, height: 900 });
}
async function type(sel, text) {
  const l = typeof sel === "string" ? page.locator(sel) : sel;
  await l.click();
  await l.pressSequentially(text, { delay: 120 });
}
async function check(name) {
  await page.screenshot({ path: `${SHOTS + name}.png`, fullPage: true });
  const r = await page.evaluate(() => {
    const de = document.documentElement;
    const cut = [];
    for (const el of document.querySelectorAll("body *")) {
      const cs = getComputedStyle(el);
      if (cs.display === "none" || cs.visibility === "hidden") continue;
      if (!el.offsetParent && cs.position !== "fixed") continue;
      const hasText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!hasText && !(el.tagName === "INPUT" || el.tagName === "SELECT")) continue;
      const ox = el.scrollWidth > el.clientWidth + 1 && ["hidden", "clip"].includes(cs.overflowX);
      const ell = cs.textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth + 1;
      const r = el.getBoundingClientRect();
      const off = r.right > window.innerWidth + 1 && r.width > 0;
      if (ox || ell || (el.tagName === "SELECT" && el.scrollWidth > el.clientWidth + 1))
        cut.push({
          tag: el.tagName,
          cls: el.className && String(el.className).slice(0, 40),
          text: (el.value || el.textContent || "").trim().slice(0, 80),
          why: ell ? "ellipsis" : "overflow-hidden",
        });
      else if (off)
        cut.push({
          tag: el.tagName,
          text: (el.textContent || "").trim().slice(0, 80),
          why: "beyond viewport right edge",
        });
    }
    const cv = document.createElement("canvas").getContext("2d");
    for (const el of document.querySelectorAll(
      "input[type=text],input[type=search],input:not([type]),input[type=email],select",
    )) {
      if (!el.offsetParent) continue;
      const cs = getComputedStyle(el);
      cv.font = cs.font;
      const t =
        el.tagName === "SELECT" ? el.selectedOptions[0]?.text || "" : el.value || el.placeholder || "";
      const avail =
        el.clientWidth -
        parseFloat(cs.paddingLeft) -
        parseFloat(cs.paddingRight) -
        (el.tagName === "SELECT" ? 20 : 0);
      if (t && cv.measureText(t).width > avail + 1)
        cut.push({
          tag: el.tagName,
          id: el.id,
          text: t.slice(0, 80),
          why: el.value || el.tagName === "SELECT" ? "value wider than box" : "placeholder wider than box",
        });
    }
    return {
      scrollW: de.scrollWidth,
      clientW: de.clientWidth,
      sideways: de.scrollWidth > de.clientWidth,
      cut: cut.slice(0, 25),
      cutCount: cut.length,
    };
  });
  await page.evaluate(AXE).catch((e) => {
    r.axeInjectError = String(e).slice(0, 200);
  });
  let axe = null;
  try {
    axe = await page.evaluate(async () => {
      const res = await window.axe.run(document);
      return res.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        n: v.nodes.length,
        t: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
      }));
    });
  } catch (e) {
    r.axeError = String(e).slice(0, 300);
  }
  r.axe = axe;
  r.axeCount = axe ? axe.length : null;
  r.axeNodes = axe ? axe.reduce((a, v) => a + v.n, 0) : null;
  r.name = name;
  r.url = page.url();
  r.width = page.viewportSize().width;
  checks.push(r);
  fs.writeFileSync("/work/wt/trial-out/newcomer/checks.json", JSON.stringify(checks, null, 1));
  return r;
}
async function text() {
  return page.evaluate(() => document.body.innerText);
}
(async () => {
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page = await ctx.newPage();
  page.on("console", (m) => {
    if (m.type() === "error")
      fs.appendFileSync("/work/wt/trial-out/newcomer/console-errors.log", `${m.text()}\n`);
  });
  http
    .createServer(async (req, res) => {
      let body = "";
      for await (const c of req) body += c;
      try {
        const fn = new Function(
          "page",
          "ctx",
          "browser",
          "setWidth",
          "type",
          "check",
          "text",
          "fs",
          `return (async () => { ${body} })()`,
        );
        const out = await fn(page, ctx, browser, setWidth, type, check, text, fs);
        res.end(typeof out === "string" ? out : JSON.stringify(out, null, 1));
      } catch (e) {
        res.end(`ERROR: ${e?.stack || e}`);
      }
    })
    .listen(9555, "127.0.0.1", () => console.log("driver ready"));
})();
