import type { Page } from "playwright-core";

/**
 * Tabs through a page from its top and reports the visible, enabled controls (links, buttons, inputs,
 * selects, text areas, summaries) inside `scope` that the Tab key never reached, and those it reached
 * without a visible focus ring (no outline while focused).
 */
export async function tabThrough(
  page: Page,
  scope = "body",
): Promise<{ controls: string[]; missed: string[]; unseen: string[] }> {
  const controls = (await page.evaluate(`(() => {
    const all = [...document.querySelectorAll(${JSON.stringify(scope)} + " :is(a[href], button, input:not([type=hidden]), select, textarea, summary)")]
      .filter((e) => !e.disabled && e.getClientRects().length > 0);
    document.querySelectorAll("[data-control]").forEach((e) => e.removeAttribute("data-control"));
    all.forEach((e, i) => e.setAttribute("data-control", String(i)));
    return all.map((e) => e.getAttribute("aria-label") || e.id || e.textContent.trim().slice(0, 40) || e.name);
  })()`)) as string[];
  await page.evaluate("document.activeElement && document.activeElement.blur()");
  const reached = new Set<string>();
  const unseen = new Set<string>();
  const limit = (await page.evaluate(
    `document.querySelectorAll("a[href], button, input, select, textarea, summary").length`,
  )) as number;
  for (let i = 0; i < limit * 2 + 2 && reached.size < controls.length; i += 1) {
    await page.keyboard.press("Tab");
    const focused = (await page.evaluate(`(() => {
      const e = document.activeElement;
      if (!e || !e.hasAttribute("data-control")) return null;
      const style = getComputedStyle(e);
      return { mark: e.getAttribute("data-control"), ring: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0 };
    })()`)) as { mark: string; ring: boolean } | null;
    if (!focused) continue;
    reached.add(focused.mark);
    if (!focused.ring) unseen.add(focused.mark);
  }
  return {
    controls,
    missed: controls.filter((_, i) => !reached.has(String(i))),
    unseen: controls.filter((_, i) => unseen.has(String(i))),
  };
}
