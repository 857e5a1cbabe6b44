import { describe, expect, it } from "vitest";
import { marketoOverMcp, runningClock } from "../helpers/marketo-mcp.js";

/**
 * A count lists no record, so its summary names the fields the counted records have (trial s9, third run:
 * N45 and N54 each spent a call reading three rows of the file they had just counted, to learn its columns).
 * The words are tested by doing what they say: every field named is taken by count_by on the same read.
 */
interface Answer {
  result: Record<string, unknown>[];
  computed?: { read: number; matched: number; groups?: number };
}

const T0 = Date.UTC(2026, 11, 1, 12);
const mkto = marketoOverMcp({ leadCount: 400, seed: 7, now: runningClock(T0), rateLimit: 1_000_000 });

const READS = [
  {
    method: "GET",
    endpoint: "/rest/v1/lists/1001/leads.json",
    query_parameters: { fields: "id,email,leadScore,leadSource,company" },
    paginate: true,
  },
  {
    method: "POST",
    endpoint: "/bulk/v1/activities/export/create.json",
    body: {
      format: "CSV",
      filter: {
        createdAt: { startAt: "2026-11-01", endAt: "2026-11-28" },
        activityTypeIds: ["Fill Out Form"],
      },
    },
    run_to_completion: true,
  },
];

describe("a count's summary names the records' fields", () => {
  it.each(READS)(
    "and count_by takes each field it names ($endpoint)",
    async (read) => {
      const counted = await mkto.ok<Answer>({ ...read, count_by: firstField(read) });
      const named =
        /the (?:record|row)s' fields, which count_by, where and order_by take: ([^;]+?)(?:, and \d+ more)?(?: \(attributes\.<name> reads one attribute\))?(?:;|\.$)/.exec(
          counted.text,
        );
      expect(named, counted.text).not.toBeNull();
      const fields = (named?.[1] ?? "").split(", ");
      expect(fields.length).toBeGreaterThan(3);
      for (const field of fields) {
        const again = await mkto.call<Answer>({ ...read, count_by: field });
        expect(again.result.isError, `${field}: ${again.text}`).toBeFalsy();
        expect(again.data.computed?.matched).toBe(counted.data.computed?.matched);
      }
      // The hint inside attributes, done: a Fill Out Form attribute counted by its dotted path.
      if (counted.text.includes("attributes.<name> reads one attribute")) {
        const inside = await mkto.ok<Answer>({ ...read, count_by: '"attributes.Webpage ID"' });
        expect(inside.data.result.some((row) => row["attributes.Webpage ID"])).toBe(true);
      } else expect(read.endpoint).not.toContain("activities");
    },
    120_000,
  );
});

function firstField(read: (typeof READS)[number]): string {
  return read.endpoint.includes("activities") ? "activityTypeId" : "leadSource";
}
