import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { gaReports, firstText as text } from "../helpers/ga-reports.js";

/** Review s58: realtime screen names and order_by's "x desc" / "x asc" (d869041c). */
const PROPERTY = "412345671";
type Rows = { rows?: Record<string, unknown>[] };
const rows = (r: CallToolResult) => (r.structuredContent as Rows).rows ?? [];

describe("review s58: GA", () => {
  const report = gaReports(PROPERTY);

  it('F1: order_by "sessions% desc" sorts as "-sessions%" does (one range and two)', async () => {
    for (const date_ranges of [
      ["last7days"],
      ["last7days", { start_date: "14daysAgo", end_date: "8daysAgo" }],
    ]) {
      const asked = { date_ranges, metrics: ["sessions%"], dimensions: ["country"] };
      const dashed = await report({ ...asked, order_by: "-sessions%" });
      expect(dashed.isError, text(dashed)).toBeFalsy();
      const worded = await report({ ...asked, order_by: "sessions% desc" });
      expect(worded.isError, text(worded)).toBeFalsy();
      expect(rows(worded)).toEqual(rows(dashed));
    }
  });

  it('F2: order_by "-sessions asc" says two directions: refused, not sorted descending unsaid', async () => {
    const asked = { date_ranges: ["last7days"], metrics: ["sessions"], dimensions: ["country"] };
    const both = await report({ ...asked, order_by: "-sessions asc" });
    const desc = await report({ ...asked, order_by: "-sessions" });
    // It sorts as "-sessions" and no word says "asc" was overruled.
    if (!both.isError) expect(rows(both)).not.toEqual(rows(desc));
  });

  it('F3: a realtime report\'s "Browser" / "Payment type" is offered only a name realtime reports take', async () => {
    for (const name of ["Browser", "Payment type"]) {
      const refused = await report({ realtime: true, metrics: ["activeUsers"], dimensions: [name] });
      expect(refused.isError).toBe(true);
      const offered = /did you mean "([^"]+)"/.exec(text(refused))?.[1];
      if (offered === undefined) continue;
      const taken = await report({ realtime: true, metrics: ["activeUsers"], dimensions: [offered] });
      expect(taken.isError, `${name} → offered ${offered}: ${text(taken)}`).toBeFalsy();
    }
  });
});
