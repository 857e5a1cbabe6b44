// Persistent driver: reads JS snippets from cmd/N.js, evaluates with page `p`, writes out/N.txt

import fs from "node:fs";
import { chromium } from "playwright-core";

const b = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
let ctx, p;
globalThis.open = async (w) => {
  if (ctx) await ctx.close();
  ctx = await b.newContext({
    viewport: { width: w, height: 900 },
    storageState: "state.json",
    acceptDownloads: true,
  });
  p = await ctx.newPage();
  globalThis.p = p;
  await p.goto("http://127.0.0.1:3333/");
  await p.waitForTimeout(800);
  return `opened ${w}`;
};
globalThis.shot = async (name, full = true) => {
  await p.screenshot({ path: `shots/${name}.png`, fullPage: full });
  const m = await p.evaluate(() => {
    const de = document.documentElement;
    const hs = de.scrollWidth > de.clientWidth + 1;
    const cut = [];
    for (const el of document.querySelectorAll("body *")) {
      const cs = getComputedStyle(el);
      if (!el.offsetParent && cs.position !== "fixed") continue;
      if (
        el.children.length === 0 &&
        el.scrollWidth > el.clientWidth + 1 &&
        (cs.overflowX === "hidden" || cs.textOverflow === "ellipsis") &&
        el.textContent.trim()
      )
        cut.push(`${el.tagName}:${el.textContent.trim().slice(0, 60)}`);
      const r = el.getBoundingClientRect();
      if (r.right > de.clientWidth + 2 && r.width > 0 && el.children.length === 0 && el.textContent.trim())
        cut.push(
          `OFFSCREEN ${el.tagName}:${el.textContent.trim().slice(0, 50)} right=${Math.round(r.right)}`,
        );
    }
    return { hscroll: hs, sw: de.scrollWidth, cw: de.clientWidth, cut: cut.slice(0, 15) };
  });
  return `shot ${name} ${JSON.stringify(m)}`;
};
globalThis.text = async (sel = "main, body") => (await p.locator(sel).first().innerText()).slice(0, 6000);
globalThis.controls = async () =>
  p.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll(
      "input, select, textarea, button, [role=combobox], [role=tab], a",
    )) {
      if (!el.offsetParent) continue;
      const id = el.id;
      let lab = "";
      if (id) {
        const l = document.querySelector(`label[for="${id}"]`);
        if (l) lab = l.innerText;
      }
      if (!lab && el.closest("label")) lab = el.closest("label").innerText;
      const r = el.getBoundingClientRect();
      let extra = "";
      if (el.tagName === "SELECT")
        extra = ` opts=[${[...el.options]
          .map((o) => o.text)
          .slice(0, 25)
          .join("|")}]`;
      out.push(
        `${el.tagName}${el.type ? `/${el.type}` : ""} name=${el.name || ""} id=${id} lab="${(lab || el.getAttribute("aria-label") || "").replace(/\s+/g, " ").slice(0, 70)}" val="${(el.value || "").slice(0, 40)}" txt="${(el.innerText || "").replace(/\s+/g, " ").slice(0, 50)}" ph="${el.placeholder || ""}" ${Math.round(r.width)}x${Math.round(r.height)}${extra}`,
      );
    }
    return out.join("\n");
  });
fs.mkdirSync("cmd", { recursive: true });
fs.mkdirSync("out", { recursive: true });
const done = new Set();
setInterval(async () => {}, 1000);
while (true) {
  for (const f of fs.readdirSync("cmd").sort()) {
    if (done.has(f)) continue;
    done.add(f);
    const code = fs.readFileSync(`cmd/${f}`, "utf8");
    let res;
    try {
      res = await new Function(`return (async () => { ${code} })()`)();
    } catch (e) {
      res = `ERR ${(e.stack || e).toString().slice(0, 1500)}`;
    }
    fs.writeFileSync(`out/${f}.txt`, typeof res === "string" ? res : JSON.stringify(res, null, 1));
  }
  await new Promise((r) => setTimeout(r, 150));
}
