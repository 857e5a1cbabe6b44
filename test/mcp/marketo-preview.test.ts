import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

/**
 * per's rows and limit per's records, many, are previewed beside their link as an export's file is (trial s39: N558
 * printed 11,000 to 20,000 characters of per's rows three times and N561 28,000 of each lead's first activity, only to
 * have a link). Invariant, over generated reads on the sandbox through MCP: the rows shown are the first of the kept
 * result, which holds every row the answer counts; a preview is 10 rows (25 ranked), and a set of 25 rows or fewer,
 * or of few characters, is shown whole.
 */
type Row = Record<string, unknown>;
interface Answer {
  result: Row[];
}

const mkto = seededMarketo(600);

const visits = (extra: Row) => ({
  method: "GET",
  endpoint: "/rest/v1/activities.json",
  query_parameters: { activityTypeIds: "Visit Webpage,Fill Out Form", sinceDatetime: "2026-11-01" },
  paginate: true,
  max_pages: 200,
  ...extra,
});

describe("per's rows and limit per's records, previewed beside their link", () => {
  it("show the first rows of the kept whole, which holds them all (property)", {
    timeout: 180_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          { per: "leadId" },
          { per: "leadId", order_by: "-records,leadId" },
          { order_by: "activityDate,id", limit: "1 per leadId" },
          { per: "leadId", where: "leadId < 40" },
        ),
        async (shape) => {
          const answer = await mkto.ok<Answer>(visits(shape));
          const whole = await mkto.results<Row>(answer);
          const shown = answer.data.result;
          expect(whole.slice(0, shown.length)).toEqual(shown);
          const said = /all ([\d,]+) are in the full result/.exec(answer.first)?.[1];
          if (whole.length > 25 && shown.length < whole.length) {
            expect(shown.length).toBe("order_by" in shape ? 25 : 10);
            expect(Number(said?.replace(/,/g, ""))).toBe(whole.length);
          } else {
            expect(shown).toHaveLength(whole.length);
          }
        },
      ),
      { numRuns: 6 },
    );
  });
});
