/**
 * Text boxes whose words do not fit (the newcomer trial's check, bench/console-trials/2026-12-02-s5/driver.cjs):
 * the value, else the placeholder, of every visible text box measured in the box's own font against the
 * width inside its padding. A placeholder cut at "…leads, re" is what a person sees of it.
 */
import type { Page } from "playwright-core";

export interface CutText {
  id: string;
  text: string;
  width: number;
  room: number;
}

/**
 * The visible text boxes whose words are cut: what each shows (its value, else its placeholder), or with
 * `placeholders`, each one's placeholder whatever it holds (what it shows once emptied).
 */
export async function cutTextBoxes(page: Page, options: { placeholders?: boolean } = {}): Promise<CutText[]> {
  const shown = options.placeholders ? 'box.placeholder || ""' : 'box.value || box.placeholder || ""';
  return (await page.evaluate(`(() => {
    const canvas = document.createElement("canvas").getContext("2d");
    const cut = [];
    for (const box of document.querySelectorAll(
      "input[type=text], input[type=search], input:not([type]), input[type=email]",
    )) {
      if (box.getClientRects().length === 0) continue;
      const style = getComputedStyle(box);
      canvas.font = style.font;
      const text = ${shown};
      const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const width = canvas.measureText(text).width;
      if (text && width > room + 1) cut.push({ id: box.id, text, width: Math.round(width), room });
    }
    return cut;
  })()`)) as CutText[];
}
