/**
 * Trials s15 (N134) and s16 (N137, N138): agents added report rows up by a dimension (each month's sessions
 * from month × channel rows, each day's from day × hour). A report by two dimensions now states GA's own totals
 * by its first. Invariants, over generated reports on the sandbox: each stated total is the value of the report
 * by that dimension alone; for sessions (each in one row) it is also the sum of the full report's rows of that
 * value, whatever page is shown; and there is no such sentence with one dimension, a metric filter or two ranges.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { forPeople } from "../../src/console/run-results.js";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

type Row = Record<string, string | number | null>;
const data = (r: CallToolResult) => r.structuredContent as unknown as { rows: Row[] };
const summary = (r: CallToolResult) => firstText(r).split("\n")[0] ?? "";
const ga = gaOverMcp();
const RANGE = [{ start_date: "2026-09-01", end_date: "2026-11-30" }];

async function report(args: Record<string, unknown>) {
  const result = await ga.call("google_analytics_run_reports", { date_ranges: RANGE, ...args });
  expect(result.isError, firstText(result)).toBeFalsy();
  return result;
}

/** The stated totals of one metric: "Totals of sessions by deviceCategory (…): mobile 7,914; desktop 7,523." */
function stated(text: string, metric: string, dimension: string): Map<string, number> | undefined {
  const at = text.indexOf(`Totals of ${metric} by ${dimension} (`);
  if (at < 0) return undefined;
  const body = text.slice(text.indexOf("): ", at) + 3, text.indexOf(".", text.indexOf("): ", at)));
  return new Map(
    body.split("; ").map((part) => {
      const cut = part.lastIndexOf(" ");
      return [part.slice(0, cut), Number(part.slice(cut + 1).replaceAll(",", ""))];
    }),
  );
}

describe("totals by the first dimension", () => {
  it("property: each stated total is GA's report by that dimension; sessions are also the rows' sums", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("Retail Web Store", "Media News Site"),
        fc.constantFrom<[string, string]>(
          ["yearMonth", "sessionDefaultChannelGroup"],
          ["deviceCategory", "country"],
          ["dayOfWeekName", "hour"],
          ["sessionDefaultChannelGroup", "deviceCategory"],
        ),
        fc.constantFrom("sessions", "activeUsers", "totalRevenue"),
        fc.integer({ min: 1, max: 5 }),
        async (property, [first, second], metric, limit) => {
          const shown = await report({ property, metrics: [metric], dimensions: [first, second], limit });
          const totals = stated(summary(shown), metric, first);
          const alone = data(
            await report({ property, metrics: [metric], dimensions: [first], limit: 100 }),
          ).rows;
          // GA leaves out rows that would read 0: a report with none (no revenue on a news site) states nothing.
          expect(totals !== undefined, summary(shown)).toBe(alone.length > 1);
          if (!totals) return;
          expect(totals?.size).toBe(alone.length);
          for (const row of alone) {
            expect(totals?.get(String(row[first]))).toBeCloseTo(Number(row[metric]), 2);
          }
          if (metric !== "sessions") return;
          const all = data(
            await report({ property, metrics: [metric], dimensions: [first, second], limit: 10_000 }),
          );
          for (const [value, total] of totals ?? []) {
            const sum = all.rows
              .filter((row) => row[first] === value)
              .reduce((s, row) => s + Number(row[metric]), 0);
            expect(sum).toBe(total);
          }
        },
      ),
      { numRuns: 12 },
    );
  });

  it("is the agent's: the console's summary leaves it out and keeps the rest", async () => {
    const shown = await report({
      property: "Retail Web Store",
      metrics: ["sessions"],
      dimensions: ["yearMonth", "deviceCategory"],
    });
    expect(summary(shown)).toContain("Totals of sessions by yearMonth");
    const person = forPeople({ summary: summary(shown), data: shown.structuredContent });
    expect(person.summary).not.toContain("Totals");
    expect(person.summary).toContain("Report on Retail Web Store");
  });

  it("gives each total's share where a share column is asked for, of GA's total (trial s20, N217)", async () => {
    const shown = await report({
      property: "Media News Site",
      metrics: ["activeUsers", "activeUsers%"],
      dimensions: ["deviceCategory", "screenResolution"],
    });
    const text = summary(shown);
    expect(text).toContain("Totals by deviceCategory");
    expect(text).not.toContain("no value");
    const alone = data(
      await report({
        property: "Media News Site",
        metrics: ["activeUsers", "activeUsers%"],
        dimensions: ["deviceCategory"],
      }),
    );
    for (const row of alone.rows) {
      expect(text).toContain(
        `${row.deviceCategory}: activeUsers ${Number(row.activeUsers).toLocaleString("en-US")}, activeUsers% ${row["activeUsers%"]}`,
      );
    }
  });

  it("is not stated with one dimension, a metric filter or two date ranges", async () => {
    const property = "Retail Web Store";
    const one = await report({ property, metrics: ["sessions"], dimensions: ["deviceCategory"] });
    expect(summary(one)).not.toContain("Totals of");
    const filtered = await report({
      property,
      metrics: ["sessions"],
      dimensions: ["deviceCategory", "country"],
      filter: "sessions > 5",
    });
    expect(summary(filtered)).not.toContain("Totals of");
    const two = await report({
      property,
      metrics: ["sessions"],
      dimensions: ["deviceCategory", "country"],
      date_ranges: ["lastMonth", { start_date: "2026-10-01", end_date: "2026-10-31" }],
    });
    expect(summary(two)).not.toContain("Totals of");
  });
});
