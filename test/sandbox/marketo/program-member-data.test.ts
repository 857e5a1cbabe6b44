/**
 * Sync Program Member Data (POST /rest/v1/programs/{programId}/members.json): custom program member
 * fields are described as updateable, written for existing members only, and read back through Get
 * Program Members `fields=`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, type Harness, jsonInit, startHarness } from "../../helpers/marketo-sandbox.js";

const NOW = Date.parse("2026-03-03T15:00:00Z");
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 300, now: () => NOW });
});
afterAll(async () => {
  await h.close();
});

const sync = (program: number, body: unknown) =>
  h.call(`/rest/v1/programs/${program}/members.json`, jsonInit("POST", body));

/** The first member of program 1001 and a lead among 1–20 that is not one. */
async function memberAndOutsider(): Promise<[number, number]> {
  const ids = Array.from({ length: 20 }, (_, i) => i + 1);
  const page = await h.call(
    `/rest/v1/programs/1001/members.json?filterType=leadId&filterValues=${ids.join(",")}`,
  );
  const members = new Set(page.result?.map((m) => m.leadId as number));
  return [[...members][0] as number, ids.find((n) => !members.has(n)) as number];
}

describe("describing program member fields", () => {
  it("lists the custom fields as updateable and the standard ones as not", async () => {
    const described = await h.call("/rest/v1/programs/members/describe.json");
    const fields = described.result?.[0]?.fields as { name: string; dataType: string; updateable: boolean }[];
    const updateable = fields.filter((f) => f.updateable).map((f) => [f.name, f.dataType]);
    expect(updateable).toEqual([
      ["myCustomField", "string"],
      ["myCustomScore", "integer"],
    ]);
    expect(fields.find((f) => f.name === "statusName")?.updateable).toBe(false);
    expect(described.result?.[0]?.searchableFields).toContainEqual(["myCustomField"]);
  });
});

describe("syncing program member data", () => {
  it("updates an existing member's custom fields, readable through fields= and as a filter", async () => {
    const [member, outsider] = await memberAndOutsider();
    const answer = await sync(1001, {
      input: [
        { leadId: member, myCustomField: "VIP table", myCustomScore: "7" },
        { leadId: outsider, myCustomField: "nope" },
      ],
    });
    expect(answer.success).toBe(true);
    expect(answer.result).toEqual([
      { seq: 0, leadId: member, status: "updated" },
      {
        seq: 1,
        leadId: outsider,
        status: "skipped",
        reasons: [{ code: "1004", message: `Lead ${outsider} is not a member of program 1001` }],
      },
    ]);
    const read = await h.call(
      `/rest/v1/programs/1001/members.json?filterType=leadId&filterValues=${member},${outsider}&fields=myCustomField,myCustomScore`,
    );
    expect(read.result).toEqual([
      expect.objectContaining({ leadId: member, myCustomField: "VIP table", myCustomScore: 7 }),
    ]);
    const byCustom = await h.call(
      "/rest/v1/programs/1001/members.json?filterType=myCustomField&filterValues=VIP%20table",
    );
    expect(byCustom.result?.map((m) => m.leadId)).toEqual([member]);
    // The sync did not make the outsider a member ("Only existing members ... may have their data changed").
    const members = await h.call(
      `/rest/v1/programs/1001/members.json?filterType=leadId&filterValues=${outsider}`,
    );
    expect(members.result).toEqual([]);
  });

  it("skips a record naming a standard, an unknown or a mistyped field, and changes nothing in it", async () => {
    const [member] = await memberAndOutsider();
    const answer = await sync(1001, {
      input: [
        { leadId: member, myCustomField: "changed", statusName: "Clicked" },
        { leadId: member, myCustomField: "changed", favouriteColour: "blue" },
        { leadId: member, myCustomScore: "many" },
        { leadId: member, myCustomField: "x".repeat(256) },
        { myCustomField: "no lead" },
      ],
    });
    expect(answer.result?.map((r) => [r.status, (r.reasons as { code: string }[])[0]?.code])).toEqual([
      ["skipped", "1003"],
      ["skipped", "1006"],
      ["skipped", "1001"],
      ["skipped", "1003"],
      ["skipped", "1003"],
    ]);
    const read = await h.call(
      `/rest/v1/programs/1001/members.json?filterType=leadId&filterValues=${member}&fields=myCustomField,statusName`,
    );
    expect(read.result?.[0]?.myCustomField).not.toBe("changed");
  });

  it("refuses an empty input, more than 300 records and an unknown program", async () => {
    expect(errorCode(await sync(1001, { input: [] }))).toBe("701");
    const many = Array.from({ length: 301 }, (_, i) => ({ leadId: i + 1, myCustomField: "x" }));
    expect(errorCode(await sync(1001, { input: many }))).toBe("1003");
    expect(errorCode(await sync(4242, { input: [{ leadId: 1, myCustomField: "x" }] }))).toBe("1013");
  });
});
