import { chromium } from "playwright-core";

const url = process.argv[2];
const b = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const ctx = await b.newContext({ viewport: { width: 1280, height: 900 } });
const p = await ctx.newPage();
await p.goto(url);
await p.waitForTimeout(1500);
await ctx.storageState({ path: "state.json" });
await p.screenshot({ path: "shots/C00-1-home.png", fullPage: true });
console.log(p.url());
console.log((await p.innerText("body")).slice(0, 3000));
await b.close();
