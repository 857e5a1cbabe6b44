/**
 * Trial s19, N198: an export's endAt "2026-12-04" without time_zone was sent as written, which Marketo reads as
 * that day's first instant, so the 5 leads created that day were left out and nothing said so. A date alone
 * without time_zone is now read in UTC as time_zone reads it: a start date is its midnight, an end date the end
 * of its day, and the answer says what was sent. Fast-check through MCP on the sandbox, whose clock is held
 * while leads are created: a lead created on a day is in the export of that day alone (dates), the same as
 * the export sent with the instants the words name, and a lead of the next day is not.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { heldClock, marketoOverMcp } from "../helpers/marketo-mcp.js";

interface Answer {
  result: Record<string, unknown>[];
}
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 11, 4, 20);
const clock = heldClock(T0, { prefix: "day", domain: "utc.example" });
const mkto = marketoOverMcp({ leadCount: 200, seed: 5, now: clock.now, bulkJobMs: 50, rateLimit: 1_000_000 });
const leadAt = (at: number) => clock.leadAt(mkto, at);

const exported = async (filter: Record<string, string>) => {
  const answer = await mkto.ok<Answer>({
    method: "POST",
    endpoint: "/bulk/v1/leads/export/create.json",
    body: { fields: ["id", "email", "createdAt"], format: "CSV", filter: { createdAt: filter } },
    run_to_completion: true,
    where: 'email ends_with "@utc.example"',
  });
  return { ids: answer.data.result.map((row) => Number(row.id)).sort((a, b) => a - b), text: answer.first };
};
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const instant = (ms: number) => `${date(ms)}T00:00:00Z`;

describe("export dates without time_zone", () => {
  it("read an end date to the end of its day in UTC, and say so", { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: DAY - 1_000 }),
        async (daysBack, within) => {
          const day = Math.floor(T0 / DAY) * DAY - daysBack * DAY;
          const lead = await leadAt(day + within);
          const next = await leadAt(day + DAY + 1_000);
          const byDates = await exported({ startAt: date(day), endAt: date(day) });
          expect(byDates.ids).toContain(lead);
          expect(byDates.ids).not.toContain(next);
          expect(byDates.text).toContain(
            `Dates without time_zone are read in UTC: createdAt ${date(day)} to ${date(day)} (to the end of that day) ` +
              `sent as ${instant(day)} to ${instant(day + DAY)}`,
          );
          const byInstants = await exported({ startAt: instant(day), endAt: instant(day + DAY) });
          expect(byInstants.ids).toEqual(byDates.ids);
          expect(byInstants.text).not.toContain("read in UTC");
        },
      ),
      { numRuns: 4, seed: 20_261_204 },
    );
  });

  it("read where's date alone as its whole day too, as the export's filter does (review s20, finding 1)", async () => {
    const day = Math.floor(T0 / DAY) * DAY - 3 * DAY;
    const lead = await leadAt(day + 15 * 3_600_000);
    for (const where of [
      `createdAt <= "${date(day)}"`,
      `createdAt = "${date(day)}"`,
      `createdAt in ("${date(day)}")`,
      `createdAt >= "${date(day)}" and createdAt < "${date(day + DAY)}"`,
    ]) {
      const answer = await mkto.ok<Answer>({
        method: "POST",
        endpoint: "/bulk/v1/leads/export/create.json",
        body: {
          fields: ["id", "email", "createdAt"],
          format: "CSV",
          filter: { createdAt: { startAt: date(day), endAt: date(day) } },
        },
        run_to_completion: true,
        where: `email ends_with "@utc.example" and ${where}`,
      });
      expect(
        answer.data.result.map((row) => Number(row.id)),
        where,
      ).toContain(lead);
    }
  });

  it("refuse a month 13 or 00 rather than roll it into another date (review s20, finding 2)", async () => {
    for (const since of ["2026-13-01", "2026-00-15", "2026-02-30"]) {
      const refused = await mkto.call({
        method: "GET",
        endpoint: "/rest/v1/activities.json",
        query_parameters: { sinceDatetime: since, activityTypeIds: "New Lead" },
      });
      expect(refused.result.isError, since).toBe(true);
      expect(refused.first).toContain(
        `${since} is neither a real date (2026-11-01) nor an ISO 8601 datetime`,
      );
      expect(refused.first).not.toContain("time_zone needs");
    }
  });

  it("say nothing was sent of a sinceDatetime a nextPageToken stands in for (review s20, finding 6)", async () => {
    const first = await mkto.ok<Answer & { next_page_token?: string }>({
      method: "GET",
      endpoint: "/rest/v1/activities/pagingtoken.json",
      query_parameters: { sinceDatetime: instant(T0 - DAY) },
    });
    const token = first.data.next_page_token;
    expect(token).toBeDefined();
    const read = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { nextPageToken: token, activityTypeIds: "New Lead", sinceDatetime: "2026-01-01" },
    });
    expect(read.text).not.toContain("sent as");
    expect(read.text).toContain("sinceDatetime is not sent: the nextPageToken places the read.");
  });

  it("state a range that mixes a date and an offset datetime as sent (review s20, 11g)", async () => {
    const answer = await mkto.call({
      method: "POST",
      endpoint: "/bulk/v1/leads/export/create.json",
      body: {
        fields: ["id"],
        format: "CSV",
        filter: { createdAt: { startAt: "2026-12-01", endAt: "2026-12-02T12:00:00-05:00" } },
      },
      run_to_completion: true,
    });
    expect(answer.text).toContain("createdAt 2026-12-01 sent as 2026-12-01T00:00:00Z");
    expect(answer.text).toContain(
      "createdAt 2026-12-01T00:00:00Z to 2026-12-02T12:00:00-05:00 is 2026-12-01T00:00:00Z to 2026-12-02T17:00:00Z in UTC",
    );
  });

  it("say the window sent in a refusal, and its split advice for dates works (review s20, finding 8)", async () => {
    const create = (startAt: string, endAt: string) =>
      mkto.call({
        method: "POST",
        endpoint: "/bulk/v1/leads/export/create.json",
        body: { fields: ["id"], format: "CSV", filter: { createdAt: { startAt, endAt } } },
      });
    const refused = await create("2026-11-01", "2026-12-02");
    expect(refused.result.isError).toBe(true);
    expect(refused.first).toContain(
      "Dates without time_zone are read in UTC: createdAt 2026-11-01 to 2026-12-02 (to the end of that day) sent as 2026-11-01T00:00:00Z to 2026-12-03T00:00:00Z",
    );
    expect(refused.first).toContain(
      "with dates, an end date counts its whole day: the next window starts the day after",
    );
    for (const [startAt, endAt] of [
      ["2026-11-01", "2026-11-30"],
      ["2026-12-01", "2026-12-02"],
    ] as const) {
      const done = await create(startAt, endAt);
      expect(done.result.isError, done.text).toBeFalsy();
    }
  });

  it("refuse an end date before the start, before it is read to the end of its day (review s21, finding 1)", async () => {
    const refused = await mkto.call({
      method: "POST",
      endpoint: "/bulk/v1/leads/export/create.json",
      body: {
        fields: ["id"],
        format: "CSV",
        filter: { createdAt: { startAt: "2026-12-03", endAt: "2026-12-02" } },
      },
      run_to_completion: true,
    });
    expect(refused.result.isError).toBe(true);
    expect(refused.first).toContain("2026-12-02 is before startAt 2026-12-03");
    expect(refused.first).toContain("Swap them");
  });

  it("send sinceDateTime to Get Paging Token in the reference's spelling (review s21, finding 7)", async () => {
    const answer = await mkto.ok<Answer & { next_page_token?: string }>({
      method: "GET",
      endpoint: "/rest/v1/activities/pagingtoken.json",
      query_parameters: { sinceDateTime: date(T0 - DAY) },
    });
    expect(answer.data.next_page_token).toBeDefined();
  });
});
