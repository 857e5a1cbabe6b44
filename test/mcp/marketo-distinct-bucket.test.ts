/**
 * count_distinct takes a date bucket or band, as count_by and per do: the distinct days each program's people joined
 * on (trial s34 N510: `count_distinct "membership.membershipDate:day"` was refused, and an agent read 63,564
 * characters to count days by hand).
 *
 * The invariant, fast-check over units and zones through MCP on the sandbox: each row's count is the number of
 * distinct buckets of its records' dates on the zone's clock, as the plain read gives them by hand.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

type Row = Record<string, unknown>;
interface Read {
  result: Row[];
}

const mkto = seededMarketo(300);
const READ = {
  method: "GET",
  endpoint: "/rest/v1/leads/programs/{programId}.json",
  query_parameters: { programId: [1001, 1002, 1003, 1004, 1005], fields: "id" },
  paginate: true,
  max_pages: 200,
};

/** A date's day, month or year on a zone's clock, by Intl. */
function bucketByHand(date: string, unit: "day" | "month" | "year", zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" })
      .formatToParts(new Date(date))
      .map((p) => [p.type, p.value]),
  );
  return unit === "year"
    ? String(parts.year)
    : unit === "month"
      ? `${parts.year}-${parts.month}`
      : `${parts.year}-${parts.month}-${parts.day}`;
}

describe("count_distinct of a date bucket", () => {
  it("counts each group's distinct days, months or years on the zone's clock, as by hand", {
    timeout: 120_000,
  }, async () => {
    // Every record: the kept result whole, as the answer shows part of it.
    const plain = await mkto.results(await mkto.ok<Read>(READ));
    expect(plain.length).toBeGreaterThan(100);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("day", "month", "year") as fc.Arbitrary<"day" | "month" | "year">,
        fc.constantFrom("UTC", "America/Los_Angeles", "Asia/Tokyo"),
        async (unit, zone) => {
          const want = new Map<string, Set<string>>();
          for (const row of plain) {
            const date = (row.membership as { membershipDate?: string } | undefined)?.membershipDate;
            if (!date) continue;
            const key = String(row.programId);
            const set = want.get(key) ?? new Set();
            set.add(bucketByHand(date, unit, zone));
            want.set(key, set);
          }
          const { data } = await mkto.ok<Read>({
            ...READ,
            count_by: "programId",
            count_distinct: `membership.membershipDate:${unit}`,
            time_zone: zone,
          });
          const got = new Map(data.result.map((row) => [String(row.programId), row.count]));
          expect(got).toEqual(new Map([...want].map(([key, set]) => [key, set.size])));
        },
      ),
      { numRuns: 6 },
    );
  });

  it("offers a misspelt bucket back as the bucket, which is taken, and refuses a unit that is none", async () => {
    const refused = await mkto.call<Read>({
      ...READ,
      count_by: "programId",
      count_distinct: "membership.membershipDat:day",
    });
    expect(refused.result.isError).toBe(true);
    expect(refused.text).toMatch(/^Invalid count_distinct: .*e\.g\. membership\.membershipDate:day\./m);
    const followed = await mkto.call<Read>({
      ...READ,
      count_by: "programId",
      count_distinct: "membership.membershipDate:day",
    });
    expect(followed.result.isError).toBeFalsy();
    const unit = await mkto.call<Read>({
      ...READ,
      count_by: "programId",
      count_distinct: "membership.membershipDate:dya",
    });
    expect(unit.result.isError).toBe(true);
    expect(unit.text).toMatch(/^Invalid count_distinct: .*":dya" is not a date bucket/m);
  });
});
