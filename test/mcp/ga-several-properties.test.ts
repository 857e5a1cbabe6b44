/**
 * Run Reports over several properties in one call (trial s10, N63: "which property has a demo_request
 * event" took an agent 8 calls, one per property): `property` as a comma-separated list or `all`, one
 * table with the property first, each property's figure or "no rows" in the summary, a property that
 * fails named with why while the others answer, and what cannot run over several refused with what to do.
 */
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

type Row = Record<string, string | number | null>;
type Data = {
  property: string;
  rows: Row[];
  totals: Row[];
  row_count: number;
  quota?: unknown;
  properties?: Record<string, unknown>[];
  date_ranges?: unknown;
};
const data = (r: { structuredContent?: unknown }) => r.structuredContent as Data;

const SEEN = [
  ["Retail Web Store", "412345671"],
  ["Retail Help Center", "412345674"],
  ["Retail Staging (no data)", "412345680"],
  ["Media News Site", "423456787"],
  ["Media Video Portal", "423456789"],
] as const;

describe("Run Reports over several properties", () => {
  const ga = gaOverMcp();
  const report = (args: Record<string, unknown>) => ga.call("google_analytics_run_reports", args);

  it("N63: eventCount by eventName filtered on eventName over all properties, one call, each property's figure or no rows", async () => {
    const args = {
      metrics: ["eventCount"],
      dimensions: ["eventName"],
      filter: 'eventName in ("generate_lead", "purchase")',
      date_ranges: [{ start_date: "2026-11-03", end_date: "2026-12-02" }],
    };
    const all = await report({ ...args, property: "all" });
    expect(all.isError, firstText(all)).toBeFalsy();
    const answer = data(all);
    expect(answer.property).toBe(SEEN.map(([, id]) => `properties/${id}`).join(","));
    expect(answer.properties?.map((p) => p.property)).toEqual(SEEN.map(([, id]) => `properties/${id}`));
    // No single quota figure: each property's own.
    expect(answer.quota).toBeUndefined();
    const summary = firstText(all).split("\n")[0] ?? "";
    expect(summary).toMatch(
      /^Report on 5 properties, each property's dates in its own time zone, only where eventName in/,
    );
    for (const [name, id] of SEEN) {
      const label = `${name} (properties/${id})`;
      const alone = await report({ ...args, property: id });
      expect(alone.isError, firstText(alone)).toBeFalsy();
      const own = data(alone);
      // Its rows, in the joined table after its name, are the rows it answers alone.
      expect(answer.rows.filter((row) => row.property === label)).toEqual(
        own.rows.map((row) => ({ property: label, ...row })),
      );
      if (own.row_count === 0)
        expect(summary).toMatch(new RegExp(`${literal(label)} \\([^)]*\\): no rows\\.`));
      else {
        const total = own.totals[0]?.eventCount as number;
        expect(summary).toMatch(
          new RegExp(
            `${literal(label)} \\([^)]*\\): ${own.row_count} rows?; total eventCount ${total.toLocaleString("en-US")}\\.`,
          ),
        );
      }
    }
    // The answer's first column names the property: the text's table starts with it.
    expect(firstText(all)).toMatch(/\nrows \(\d+, tab-separated\):\nproperty\teventName\teventCount\n/);
  });

  it("a list of names and IDs; a name that has a comma in it is one property", async () => {
    const created = await ga.call("google_analytics_create_properties", {
      analytics_account: "accounts/100001",
      display_name: "Shop, Europe",
      time_zone: "Europe/Paris",
      currency_code: "EUR",
    });
    expect(created.isError, firstText(created)).toBeFalsy();
    const one = await report({ property: "shop, europe", metrics: ["sessions"] });
    expect(one.isError, firstText(one)).toBeFalsy();
    expect(data(one).properties).toBeUndefined();
    expect(firstText(one)).toMatch(/^Report on Shop, Europe \(properties\/\d+\)/);
    const two = await report({ property: "Retail Web Store, 412345674", metrics: ["sessions"] });
    expect(two.isError, firstText(two)).toBeFalsy();
    expect(data(two).property).toBe("properties/412345671,properties/412345674");
    expect(data(two).rows.map((row) => row.property)).toEqual([
      "Retail Web Store (properties/412345671)",
      "Retail Help Center (properties/412345674)",
    ]);
    const unknown = await report({ property: "Retail Web Store, Nowhere", metrics: ["sessions"] });
    expect(unknown.isError).toBe(true);
    expect(firstText(unknown)).toMatch(/Invalid property \(item 2, "Nowhere"\): no property named "Nowhere"/);
  });

  it("a field one property lacks fails that property only, saying why; when all fail, it is an error", async () => {
    const args = { metrics: ["eventCount"], dimensions: ["customEvent:article_section"] };
    const mixed = await report({ ...args, property: "Media News Site, Retail Web Store" });
    expect(mixed.isError, firstText(mixed)).toBeFalsy();
    const answer = data(mixed);
    expect(answer.rows.length).toBeGreaterThan(0);
    expect(answer.rows.every((row) => row.property === "Media News Site (properties/423456787)")).toBe(true);
    const failed = answer.properties?.find((p) => p.property === "properties/412345671");
    expect(failed?.error).toMatch(/customEvent:article_section/);
    expect(firstText(mixed)).toMatch(
      /Retail Web Store \(properties\/412345671\) failed: .*customEvent:article_section/,
    );
    const none = await report({ ...args, property: "Retail Web Store, Retail Help Center" });
    expect(none.isError).toBe(true);
    expect(firstText(none)).toMatch(/customEvent:article_section/);
  });

  it("two periods compare per property, realtime reports join too; a funnel is refused with what to do", async () => {
    const compared = await report({
      property: "412345671,412345674",
      metrics: ["sessions"],
      dimensions: ["deviceCategory"],
      date_ranges: ["last7days", { start_date: "14daysAgo", end_date: "8daysAgo", name: "before" }],
    });
    expect(compared.isError, firstText(compared)).toBeFalsy();
    for (const [, id] of SEEN.slice(0, 2)) {
      const alone = await report({
        property: id,
        metrics: ["sessions"],
        dimensions: ["deviceCategory"],
        date_ranges: ["last7days", { start_date: "14daysAgo", end_date: "8daysAgo", name: "before" }],
      });
      const label = data(compared).rows.find((row) =>
        String(row.property).endsWith(`(properties/${id})`),
      )?.property;
      expect(data(compared).rows.filter((row) => row.property === label)).toEqual(
        data(alone).rows.map((row) => ({ property: label, ...row })),
      );
    }
    // Realtime too, each property's rows from the first (no offset): the answer says how to see more.
    const realtime = await report({
      property: "412345671,423456787",
      realtime: true,
      metrics: ["activeUsers"],
      dimensions: ["country"],
      limit: 2,
    });
    expect(realtime.isError, firstText(realtime)).toBeFalsy();
    expect(data(realtime).rows.map((row) => row.property)).toEqual([
      ...Array(2).fill("Retail Web Store (properties/412345671)"),
      ...Array(2).fill("Media News Site (properties/423456787)"),
    ]);
    expect(firstText(realtime)).toContain(
      "- Not every row is shown: realtime reports cannot be paged with offset",
    );
    const funnel = await report({ property: "all", funnel: { steps: ["session_start", "purchase"] } });
    expect(funnel.isError).toBe(true);
    expect(firstText(funnel)).toMatch(/a funnel runs on one property at a time.*once per property/);
  });
});

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
