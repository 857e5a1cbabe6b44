import { describe, expect, it } from "vitest";
import { marketoOverMcp, NO_CALL_WINDOW, runningClock } from "../helpers/marketo-mcp.js";

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
const mkto = marketoOverMcp(
  { leadCount: 400, seed: 7, now: runningClock(T0), rateLimit: 1_000_000 },
  undefined,
  NO_CALL_WINDOW,
);

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
  // Its attributes listed one by one, names with spaces among them (trial s10, N75: attributes.New Value).
  {
    method: "GET",
    endpoint: "/rest/v1/activities.json",
    query_parameters: { sinceDatetime: "2026-11-01T00:00:00Z", activityTypeIds: "Change Data Value" },
    paginate: true,
    max_pages: 3,
  },
];

describe("a count's summary names the records' fields", () => {
  it.each(READS)(
    "and count_by takes each field it names ($endpoint)",
    async (read) => {
      const counted = await mkto.ok<Answer>({ ...read, count_by: firstField(read) });
      const named =
        /the (?:record|row)s' fields, which count_by, where and order_by take: ([^;]+?)(?:, and \d+ more)?(?: \(attributes\.<name> reads one attribute[^)]*\))?(?:;|\.$)/.exec(
          counted.text,
        );
      expect(named, counted.text).not.toBeNull();
      const fields = (named?.[1] ?? "").split(", ");
      expect(fields.length).toBeGreaterThan(3);
      for (const field of fields) {
        const again = await mkto.call<Answer>({ ...read, count_by: field });
        expect(again.result.isError, `${field}: ${again.text}`).toBeFalsy();
        expect(again.data.computed?.matched).toBe(counted.data.computed?.matched);
        // Written as listed, where reads it too (a name with a space comes quoted).
        const filtered = await mkto.call<Answer>({
          ...read,
          where: `not (${field} is empty) or ${field} is empty`,
        });
        expect(filtered.result.isError, `where ${field}: ${filtered.text}`).toBeFalsy();
        expect(filtered.data.computed?.matched).toBe(counted.data.computed?.matched);
      }
      // The hint inside attributes, done: a Fill Out Form attribute counted by its dotted path.
      if (counted.text.includes("attributes.<name> reads one attribute")) {
        expect(counted.text).toContain('a name with a space is quoted whole: "attributes.<the name>"');
        const attribute = read.endpoint.includes("bulk") ? "attributes.Webpage ID" : "attributes.New Value";
        const inside = await mkto.ok<Answer>({ ...read, count_by: JSON.stringify(attribute) });
        expect(inside.data.result.some((row) => row[attribute])).toBe(true);
        // Read inside, the attributes are listed one by one, as where takes them (a space: quoted).
        const listed = /take: ([^;]+)/.exec(inside.text)?.[1] ?? "";
        expect(listed, inside.text).toContain(JSON.stringify(attribute));
        const where = await mkto.call<Answer>({
          ...read,
          where: `${JSON.stringify(attribute)} is empty or not (${JSON.stringify(attribute)} is empty)`,
        });
        expect(where.result.isError, where.text).toBeFalsy();
      } else expect(read.endpoint).not.toContain("activities");
    },
    120_000,
  );
});

function firstField(read: (typeof READS)[number]): string {
  return read.endpoint.includes("activit") ? "activityTypeId" : "leadSource";
}
