import { open, shot, text } from "./lib.mjs";

const { browser, page } = await open(1280);
await page.getByLabel("Search tool steps").fill("sessions by channel");
await page.waitForTimeout(500);
await shot(page, "C1-1280-1");
console.log(await text(page));
await browser.close();
