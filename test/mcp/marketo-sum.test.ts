import { describe, expect, it } from "vitest";
import { marketoOverMcp, runningClock } from "../helpers/marketo-mcp.js";

/**
 * count_by's `sum` through MCP on the sandbox (issue 27: "spend per program" was the model's arithmetic): each
 * group's sum equals the one the test adds from the plain records of the same read, the summary states the
 * total, order_by "-sum" ranks by it, and a value that is no number is refused naming the field and the value.
 */
interface Answer {
  result: Record<string, unknown>[];
  computed?: { read: number; matched: number; sum?: number };
}

const mkto = marketoOverMcp({ leadCount: 300, seed: 11, now: runningClock(Date.UTC(2026, 11, 2, 12)) });

const IDS = Array.from({ length: 120 }, (_, i) => i + 1).join(",");
const read = (extra: Record<string, unknown>) =>
  mkto.ok<Answer>({
    method: "GET",
    endpoint: "/rest/v1/leads.json",
    query_parameters: { filterType: "id", filterValues: IDS, fields: "id,leadSource" },
    ...extra,
  });

describe("count_by with sum", () => {
  it("adds a number per group as the plain records do, ranks by -sum and states the total", async () => {
    const plain = (await read({})).data.result;
    const want = new Map<string, number>();
    for (const lead of plain) {
      const source = String(lead.leadSource ?? null);
      want.set(source, (want.get(source) ?? 0) + Number(lead.id));
    }
    const { data, first } = await read({ count_by: "leadSource", sum: "id", order_by: "-sum" });
    const got = data.result.map((row) => [String(row.leadSource ?? null), row.sum]);
    expect(want.size).toBeGreaterThan(2);
    expect(new Map(got as [string, number][])).toEqual(want);
    const sums = data.result.map((row) => Number(row.sum));
    expect(sums).toEqual([...sums].sort((a, b) => b - a));
    const total = [...want.values()].reduce((a, b) => a + b, 0);
    expect(data.computed?.sum).toBe(total);
    expect(first).toContain(`each row's sum adds its records' id: ${total.toLocaleString("en-US")} in all`);
  });

  it("refuses a value that is no number, naming the field and a value, and sum without count_by", async () => {
    const text = await mkto.call<Answer>({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "id", filterValues: "1,2", fields: "id,email" },
      count_by: "id",
      sum: "email",
    });
    expect(text.result.isError).toBe(true);
    expect(text.first).toMatch(/sum: email holds "[^"]+@[^"]+", which is no number or date/);
    const alone = await mkto.call<Answer>({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "id", filterValues: "1,2" },
      sum: "id",
    });
    expect(alone.result.isError).toBe(true);
    expect(alone.first).toMatch(/sum: it applies to count_by's counts/);
  });

  it("refuses a misspelt path through a list, naming the paths the list's items have", async () => {
    const call = (sum: string) =>
      mkto.call<Answer>({
        method: "GET",
        endpoint: "/rest/asset/v1/program/{id}.json",
        query_parameters: { id: Array.from({ length: 12 }, (_, i) => 1001 + i) },
        count_by: "id",
        sum,
      });
    const wrong = await call("costs.cots");
    expect(wrong.result.isError).toBe(true);
    expect(wrong.first).toMatch(
      /sum: none of the 12 records read has a field named costs\.cots; they have costs\.cost, /,
    );
    const right = await call("costs.cost");
    expect(right.result.isError).toBeFalsy();
  });
});
