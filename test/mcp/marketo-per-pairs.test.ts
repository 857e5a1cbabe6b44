import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

/**
 * per on several fields joined by "&": a row per pair (trial s41 N580: "pages that pull the same people back on
 * different days" read 729,000 characters of visits, since per rolled up by one field). Invariant, over generated keys
 * on the sandbox through MCP: the rows are the distinct pairs of the records read (each field holding a value), each
 * row's records its records, and a listed date bucket's count its distinct days; the rows' records add up to the
 * records with every key.
 */
type Row = Record<string, unknown>;
interface Answer {
  result: Row[];
}

const mkto = seededMarketo(600);
const READ = {
  method: "GET",
  endpoint: "/rest/v1/activities.json",
  query_parameters: { activityTypeIds: "Visit Webpage,Fill Out Form", sinceDatetime: "2026-11-10" },
  paginate: true,
  max_pages: 200,
};

describe("per on several fields", () => {
  it("gives a row per distinct pair, with its records and distinct days (property)", {
    timeout: 180_000,
  }, async () => {
    const records = await mkto.results<Row>(await mkto.ok<Answer>(READ));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          ["primaryAttributeValue", "leadId"],
          ["leadId", "activityType"],
          ["activityType", "primaryAttributeValue", "leadId"],
        ),
        async (keys) => {
          const rows = await mkto.results<Row>(
            await mkto.ok<Answer>({ ...READ, per: `${keys.join(" & ")},activityDate:day` }),
          );
          const expected = new Map<string, { records: number; days: Set<string> }>();
          for (const record of records) {
            const values = keys.map((key) => record[key]);
            if (values.some((value) => value === null || value === undefined || value === "")) continue;
            const key = JSON.stringify(values.map(String));
            const group = expected.get(key) ?? { records: 0, days: new Set<string>() };
            group.records += 1;
            group.days.add(String(record.activityDate).slice(0, 10));
            expected.set(key, group);
          }
          expect(rows).toHaveLength(expected.size);
          for (const row of rows) {
            const group = expected.get(JSON.stringify(keys.map((key) => String(row[key]))));
            expect(group, JSON.stringify(row)).toBeDefined();
            expect(row.records).toBe(group?.records);
            expect(row["activityDate:day_count"]).toBe(group?.days.size);
          }
        },
      ),
      { numRuns: 4 },
    );
  });

  it("counts the pairs by a condition on their rows: visitors who came back to a page on two days or more", {
    timeout: 60_000,
  }, async () => {
    const per = "primaryAttributeValue & leadId,activityDate:day";
    const rows = await mkto.results<Row>(await mkto.ok<Answer>({ ...READ, per }));
    const counted = await mkto.ok<Answer>({
      ...READ,
      per,
      count_by: "primaryAttributeValue,activityDate:day_count >= 2",
    });
    const back = new Map<unknown, number>();
    for (const row of rows)
      if (Number(row["activityDate:day_count"]) >= 2)
        back.set(row.primaryAttributeValue, (back.get(row.primaryAttributeValue) ?? 0) + 1);
    expect(back.size).toBeGreaterThan(0);
    const got = new Map(
      counted.data.result
        // A page with none is listed with 0 beside the others.
        .filter((row) => row["activityDate:day_count >= 2"] === true && Number(row.count) > 0)
        .map((row) => [row.primaryAttributeValue, row.count]),
    );
    expect(got).toEqual(back);
  });

  it("refuses a key holding objects with a hint that keeps the other keys, and the hint's form answers (review s50, 4)", async () => {
    const opens = {
      ...READ,
      query_parameters: { activityTypeIds: "Open Email", sinceDatetime: "2026-11-10" },
    };
    const refused = await mkto.call<Answer>({ ...opens, per: "leadId & attributes" });
    expect(refused.result.isError).toBe(true);
    const fix = /e\.g\. per "([^"]+)"/.exec(refused.first)?.[1];
    expect(fix, refused.first).toMatch(/^leadId & attributes\./);
    const rows = await mkto.results<Row>(await mkto.ok<Answer>({ ...opens, per: fix }));
    expect(rows.length).toBeGreaterThan(0);
    expect(Object.keys(rows[0] ?? {})).toEqual(expect.arrayContaining(["leadId", fix?.split(" & ")[1]]));
  });

  it("refuses a joined list as a second key as it does as the first (review s50, 3)", async () => {
    // Visits of the same leads: a lead's several rows make joined a list.
    const join = `"/rest/v1/activities.json?activityTypeIds=Visit Webpage&sinceDatetime=2026-11-10" on leadId = leadId`;
    const first = await mkto.call<Answer>({ ...READ, join, per: "joined.primaryAttributeValue & leadId" });
    const second = await mkto.call<Answer>({ ...READ, join, per: "leadId & joined.primaryAttributeValue" });
    expect(first.result.isError, first.first).toBe(true);
    expect(second.result.isError, `${first.first}\n---\n${second.first}`).toBe(true);
    expect(second.first.split(":")[0]).toBe(first.first.split(":")[0]);
    expect(second.first).not.toContain("has a value in");
  });

  it("says a record lacking one key as lacking it, not both (review s50, 5)", async () => {
    const keys = ["attributes.Query Parameters", "attributes.Referrer URL"];
    const answer = await mkto.ok<Answer>({ ...READ, per: keys.map((key) => `"${key}"`).join(" & ") });
    const records = await mkto.results<Row>(await mkto.ok<Answer>(READ));
    const value = (row: Row, name: string) =>
      ((row.attributes ?? []) as { name: string; value: unknown }[]).find(
        (a) => `attributes.${a.name}` === name,
      )?.value;
    const lacking = records.filter((row) =>
      keys.some((key) => [undefined, null, ""].includes(value(row, key) as never)),
    );
    const lackingBoth = records.filter((row) =>
      keys.every((key) => [undefined, null, ""].includes(value(row, key) as never)),
    );
    // Some lack one only: "no A & B" read as lacking both.
    expect(lacking.length).toBeGreaterThan(lackingBoth.length);
    expect(answer.first).toContain(
      `${lacking.length.toLocaleString("en-US")} records with no ${keys[0]} or no ${keys[1]} are in none`,
    );
  });

  it("orders a pair's weekday key Monday to Sunday, alone and by order_by, as one key alone is (review s50, 2)", async () => {
    const WEEK = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
    for (const extra of [{}, { order_by: '"activityDate:weekday",activityType' }]) {
      const rows = await mkto.results<Row>(
        await mkto.ok<Answer>({ ...READ, per: "activityDate:weekday & activityType", ...extra }),
      );
      const days = rows.map((row) => WEEK.indexOf(String(row["activityDate:weekday"])));
      expect(days.every((day) => day >= 0)).toBe(true);
      expect(new Set(days).size).toBeGreaterThan(3);
      expect(days).toEqual([...days].sort((a, b) => a - b));
    }
  });

  it("says a per key written amiss as it is, and each hint, done, answers (review s50, 6)", async () => {
    for (const [per, said] of [
      ["leadId &", 'a key around "&" is empty'],
      ["leadId && primaryAttributeValue", 'a key around "&" is empty'],
      ["leadId & leadId", "leadId is named twice among its keys"],
      // The keys given, and the fields listed after them, kept in the hint (review s52, 5).
      ["activityType & primaryAttributeValue &", 'a key around "&" is empty'],
      [
        "leadId, primaryAttributeValue & activityType, activityDate:day",
        '"&" joins the keys before the first comma',
      ],
      ["leadId, leadId & primaryAttributeValue", '"&" joins the keys before the first comma'],
    ] as const) {
      const refused = await mkto.call<Answer>({ ...READ, per });
      expect(refused.result.isError, per).toBe(true);
      expect(refused.first).toContain(`Invalid per: ${said}`);
      const hinted = /e\.g\. per "([^"]+)"/.exec(refused.first)?.[1];
      expect(hinted, refused.first).toBeDefined();
      const done = await mkto.ok<Answer>({ ...READ, per: hinted });
      if (per.startsWith("activityType &")) expect(hinted).toBe("activityType & primaryAttributeValue");
      if (per.includes("activityDate:day")) {
        expect(hinted).toBe("leadId & primaryAttributeValue & activityType,activityDate:day");
        expect(Object.keys(done.data.result[0] ?? {})).toContain("activityDate:day");
      }
    }
  });
});
