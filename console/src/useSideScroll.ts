/**
 * How many of a table's columns lie outside its scroll box, to the left and to the right: at 400 px a
 * report's last columns were cut off with no cue that the table scrolls sideways (newcomer trial
 * 2026-12-02-s7, finding 3). The table's box shows a fade on the side that has more and a line saying how
 * many columns are there (RecordsTable.tsx); both follow the box's scrolling and its size.
 */
import { type RefObject, useLayoutEffect, useState } from "react";

export interface SideColumns {
  /** Columns not wholly in view on the left (scrolled past) and on the right (still to come). */
  left: number;
  right: number;
}

/** A column cut by less than this many pixels still reads as shown (rounding, a border). */
const SLACK = 2;

/** The columns of the box's table (its header's first row) outside the box's visible part. */
export function columnsOutOfView(box: HTMLElement): SideColumns {
  const view = box.getBoundingClientRect();
  const start = view.left + box.clientLeft;
  const end = start + box.clientWidth;
  let left = 0;
  let right = 0;
  for (const head of box.querySelectorAll("thead tr:first-child > th")) {
    const cell = head.getBoundingClientRect();
    if (cell.right > end + SLACK) right++;
    else if (cell.left < start - SLACK) left++;
  }
  return { left, right };
}

/** The columns out of view of the scroll box `box`, measured again when it scrolls or either it or its table resizes. */
export function useSideScroll(box: RefObject<HTMLElement | null>): SideColumns {
  const [out, setOut] = useState<SideColumns>({ left: 0, right: 0 });
  useLayoutEffect(() => {
    const node = box.current;
    if (!node) return;
    const measure = () => {
      const next = columnsOutOfView(node);
      setOut((now) => (now.left === next.left && now.right === next.right ? now : next));
    };
    measure();
    node.addEventListener("scroll", measure, { passive: true });
    // The box narrows with the window; the table widens with rows loaded or a column's longer values.
    const sizes = new ResizeObserver(measure);
    sizes.observe(node);
    const table = node.querySelector("table");
    if (table) sizes.observe(table);
    return () => {
      node.removeEventListener("scroll", measure);
      sizes.disconnect();
    };
  }, [box]);
  return out;
}

const columns = (n: number) => `${n} more column${n === 1 ? "" : "s"}`;

/** The line over a table wider than its box, or none when every column is in view. */
export function sideScrollCue(out: SideColumns): string | undefined {
  if (out.right > 0)
    return `Scroll sideways for ${columns(out.right)} →${out.left > 0 ? ` (${out.left} to the left)` : ""}`;
  if (out.left > 0) return `← Scroll back for ${columns(out.left)}`;
  return undefined;
}
