/**
 * Which of a list's members show for what was typed in its search box (trial s10, finding 2: a lead was
 * found among 81 members only by scrolling a box inside the page). Pure, so a test checks it without a page.
 */
type Row = Record<string, unknown>;

const text = (value: unknown) =>
  typeof value === "string" || typeof value === "number" ? String(value) : "";

/** What a member is found by besides its id: its email and its name (first, last, both in either order). */
function wordsOf(row: Row): string[] {
  const [first, last] = [text(row.firstName), text(row.lastName)];
  return [text(row.email), `${first} ${last}`, `${last} ${first}`, `${last}, ${first}`]
    .map((one) => one.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * The members matching `typed` (all of them when nothing is typed): digits find the lead of that id,
 * other text any member whose email or name holds it (any case). The `marked` leads (just added) come
 * first, in the order given, the others in the result's order.
 */
export function membersShown(rows: readonly Row[], typed: string, marked: readonly string[] = []): Row[] {
  const wanted = typed.trim().toLowerCase();
  const found = rows.filter((row) => {
    if (!wanted) return true;
    // Digits alone are an id, found whole: "7" is lead 7, not every email holding a 7.
    if (/^\d+$/.test(wanted)) return text(row.id) === wanted;
    return wordsOf(row).some((word) => word.includes(wanted));
  });
  const rank = (row: Row) => {
    const at = marked.indexOf(text(row.id));
    return at < 0 ? marked.length : at;
  };
  return found
    .map((row, index) => ({ row, index }))
    .sort((a, b) => rank(a.row) - rank(b.row) || a.index - b.index)
    .map(({ row }) => row);
}
