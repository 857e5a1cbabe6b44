import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { gaReports, firstText as text } from "../helpers/ga-reports.js";

/** Review s57: GA's screen names (667d059c) tried in realtime reports and order_by. */
const PROPERTY = "412345671";

describe("review s57: GA's screen names", () => {
  const report = gaReports(PROPERTY);

  it('F5: a realtime report\'s one-word screen names ("Country", "Views") are offered their API names, not sent to Google', async () => {
    // The same name in a standard report is offered "country" before anything is sent.
    const standard = await report({
      date_ranges: ["last7days"],
      metrics: ["activeUsers"],
      dimensions: ["Country"],
    });
    expect(standard.isError).toBe(true);
    expect(text(standard)).toContain('did you mean "country"');
    const dimension = await report({ realtime: true, metrics: ["activeUsers"], dimensions: ["Country"] });
    expect(dimension.isError).toBe(true);
    expect(text(dimension)).not.toContain("Google Analytics rejected the request");
    expect(text(dimension)).toContain('"country"');
    const metric = await report({ realtime: true, metrics: ["Views"], dimensions: ["country"] });
    expect(metric.isError).toBe(true);
    expect(text(metric)).not.toContain("Google Analytics rejected the request");
    expect(text(metric)).toContain("screenPageViews");
  });

  it('F6: a realtime report\'s "Minutes ago" is offered minutesAgo', async () => {
    const refused = await report({ realtime: true, metrics: ["activeUsers"], dimensions: ["Minutes ago"] });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("minutesAgo");
  });

  it('F7: order_by "activeUsers desc" is taken as SQL writes it: descending, as "-activeUsers"', async () => {
    const asked = { date_ranges: ["last7days"], metrics: ["activeUsers"], dimensions: ["country"] };
    const worded = await report({ ...asked, order_by: "activeUsers desc" });
    const dashed = await report({ ...asked, order_by: "-activeUsers" });
    expect(worded.isError, text(worded)).toBeFalsy();
    const rows = (r: CallToolResult) => (r.structuredContent as { rows?: unknown[] }).rows;
    expect(rows(worded)?.length).toBeGreaterThan(1);
    expect(rows(worded)).toEqual(rows(dashed));
    const up = await report({ ...asked, order_by: "activeUsers asc" });
    const users = ((up.structuredContent as { rows: Record<string, unknown>[] }).rows ?? []).map((r) =>
      Number(r.activeUsers),
    );
    expect(users).toEqual([...users].sort((a, b) => a - b));
  });
});
