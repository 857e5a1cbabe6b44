import { describe, expect, it } from "vitest";
import { marketoOverMcp } from "../helpers/marketo-mcp.js";

/**
 * Trial s17, N161: "GET /rest/v1/leads/2468/listMembership.json: 0 records read" left the agent unsure whether
 * the lead was on no list; it asked list by list. A membership read that finds none now says so, and the claim
 * holds: asked of every static list, the lead is a member of none. A lead on lists gets no such words.
 */
interface Records {
  result: Record<string, unknown>[];
}
const mkto = marketoOverMcp({});

describe("a lead's memberships, none found", () => {
  it("says the lead is on no static list, which every list confirms", async () => {
    const lists = await mkto.ok<Records>({ method: "GET", endpoint: "/rest/v1/lists.json", paginate: true });
    const listIds = lists.data.result.map((list) => Number(list.id));
    let lonely: number | undefined;
    let member: number | undefined;
    for (let id = 2460; id < 2500 && (lonely === undefined || member === undefined); id++) {
      const read = await mkto.call<Records>({
        method: "GET",
        endpoint: `/rest/v1/leads/${id}/listMembership.json`,
      });
      if (read.result.isError) continue;
      if (read.data.result.length === 0) {
        lonely ??= id;
        if (lonely === id)
          expect(read.first).toContain(`lead ${id} is on no static list (Marketo lists none for it)`);
      } else {
        member ??= id;
        if (member === id) expect(read.first).not.toContain("is on no static list");
      }
    }
    expect(lonely).toBeDefined();
    const asked = await mkto.ok<Records>({
      method: "GET",
      endpoint: "/rest/v1/lists/{listId}/leads/ismember.json",
      query_parameters: { listId: listIds, id: lonely as number },
    });
    expect(asked.data.result.length).toBe(listIds.length);
    expect(asked.data.result.every((row) => row.status === "notmemberof")).toBe(true);
  });
});
