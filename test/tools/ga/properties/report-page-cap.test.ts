/**
 * The output cap on a report's page, as a property over generated rows of any size (the sandbox's rows are
 * too small to reach the 45 KB cap often): read from any offset following next_offset, every row comes once
 * and in order whatever cut the answers; each answer stays under the cap (or holds one row larger than it);
 * the kept result of a page is its rows from the first, within the kept size but never fewer than the answer
 * shows; the paging hint says the rows shown.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonBytes } from "../../../../src/json-size.js";
import type { FlatRow } from "../../../../src/tools/ga/report-flatten.js";
import { pageReport } from "../../../../src/tools/ga/report-paging.js";
import { MAX_RESULT_BYTES } from "../../../../src/tools/output-cap.js";
import { SEED } from "../../../helpers/ga-properties.js";

// Any text, padded to up to 3,000 two-byte characters: 60 rows reach past the 45 KB cap about half the time.
const row = fc.record({
  pagePath: fc
    .tuple(fc.string({ maxLength: 8, unit: "grapheme" }), fc.noBias(fc.integer({ min: 0, max: 3_000 })))
    .map(([text, pad]) => text + "é".repeat(pad / 2)),
  sessions: fc.integer({ min: 0, max: 1_000_000 }),
});

describe("a report page under the output cap, generated rows", () => {
  it("pages read from an offset following next_offset give every row once, each page under the cap", () => {
    let capped = 0;
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 60, size: "max" }),
        fc.nat(),
        fc.integer({ min: 1, max: 200 }),
        fc.option(fc.integer({ min: 1_000, max: 120_000 }), { nil: undefined }),
        (rows: FlatRow[], rawOffset, limit, keepBytes) => {
          if (jsonBytes(rows) > MAX_RESULT_BYTES) capped += 1;
          const offset = rows.length === 0 ? 0 : rawOffset % rows.length;
          const read: FlatRow[] = [];
          let next: number | undefined = offset;
          while (next !== undefined) {
            const first: number = next;
            const gaPage = rows.slice(first, first + limit);
            const page = pageReport(
              { rows: gaPage, totals: [], rowCount: rows.length },
              { first, columns: ["pagePath", "sessions"], keepBytes, realtime: false },
            );
            if (page.rows.length > 1) expect(jsonBytes(page.rows)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
            expect(page.rows).toEqual(gaPage.slice(0, page.rows.length));
            if (page.full) {
              // The kept rows: this GA page from its first row, as many as the kept size allows (one at least).
              expect(page.full.items).toEqual(gaPage.slice(0, page.full.items.length));
              expect(page.full.items.length).toBeGreaterThanOrEqual(page.rows.length);
              // Within the kept size, or the rows shown when the kept size is smaller than the answer.
              const room = Math.max(keepBytes ?? 0, jsonBytes(page.rows));
              if (page.full.items.length > 1) expect(jsonBytes(page.full.items)).toBeLessThanOrEqual(room);
            }
            const shownTo = first + page.rows.length;
            if (page.nextOffset !== undefined) {
              expect(page.nextOffset).toBe(shownTo);
              expect(page.hints.join(" ")).toContain(
                `Showing rows ${first + 1}–${shownTo} of ${rows.length}`,
              );
            } else expect(shownTo === rows.length || gaPage.length === 0).toBe(true);
            read.push(...page.rows);
            expect(read.length).toBeLessThanOrEqual(rows.length);
            next = page.nextOffset;
          }
          expect(read).toEqual(rows.slice(offset));
        },
      ),
      { seed: SEED, numRuns: 60 },
    );
    // The generated reports reached past the cap, not only under it.
    expect(capped).toBeGreaterThan(15);
  });
});
