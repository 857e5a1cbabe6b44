import { open, shot, text } from "./lib.mjs";

const { browser, page } = await open(1280);
await page.getByLabel("Search tool steps").fill("sessions by channel");
await page.waitForTimeout(300);
await page.getByText("Run Reports", { exact: true }).first().click();
await page.waitForTimeout(1000);
await shot(page, "C1-1280-2");
console.log(await text(page));
console.log(
  await page.evaluate(() =>
    [...document.querySelectorAll("label, input, select, textarea, button")]
      .map(
        (e) =>
          `${e.tagName} ${e.id || ""} ${e.getAttribute("name") || ""} ${e.type || ""} :: ${(e.innerText || e.value || "").slice(0, 80).replace(/\n/g, " | ")}`,
      )
      .join("\n"),
  ),
);
await browser.close();
