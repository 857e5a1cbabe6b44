/**
 * The console's headline of a REST read (console/src/marketo/marketo-words.ts): a count's rows are counts, not
 * records (review s57, note: a `:columns` table of 980 count rows read "Marketo returned 980 records").
 */
import { describe, expect, it } from "vitest";
import type { RunResult } from "../../console/src/api.js";
import { restHeadline } from "../../console/src/marketo/marketo-words.js";

const result = (rows: number, computed?: Record<string, number>, kept?: number): RunResult =>
  ({
    type: "result",
    summary: "",
    notes: [],
    data: {
      result: Array.from({ length: rows }, (_, i) => ({ leadId: i, count: 1 })),
      ...(computed ? { computed } : {}),
    },
    ...(kept !== undefined ? { kept: { items: kept } } : {}),
  }) as unknown as RunResult;

const read = { method: "GET", endpoint: "/rest/v1/activities.json" };

describe("the console's headline of a REST read", () => {
  it("says the records read and the rows they were counted in, the kept rows' whole number", () => {
    expect(
      restHeadline({ ...read, count_by: "leadId,activityType:columns" }, result(25, { read: 4490 }, 980)),
    ).toBe("Marketo returned 4,490 records, counted in 980 rows.");
    expect(restHeadline({ ...read, count_by: "leadSource" }, result(1, { read: 1 }))).toBe(
      "Marketo returned 1 record, counted in 1 row.",
    );
  });

  it("says records of a plain read, as before", () => {
    expect(restHeadline(read, result(2))).toBe("Marketo returned 2 records.");
  });
});
