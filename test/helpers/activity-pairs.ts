/**
 * What the tests of `previous` and `next` (marketo-previous.test.ts, marketo-next.test.ts) share: each activity
 * type's kind of primary attribute, and a read of more than 10 types whose Send Email group a max_items cuts.
 */
import { expect } from "vitest";
import type { MarketoMcp, ToolAnswer } from "./marketo-mcp.js";

const READ = { method: "GET", endpoint: "/rest/v1/activities.json", paginate: true, max_pages: 200 };

/** Each type's primary attribute, from GET /rest/v1/activities/types.json: two types of one kind pair on its value. */
export async function activityKinds(mkto: MarketoMcp): Promise<Map<number, string>> {
  const types = await mkto.ok<{ result: { id: number; primaryAttribute?: { name: string } }[] }>({
    method: "GET",
    endpoint: "/rest/v1/activities/types.json",
  });
  const kinds = new Map<number, string>();
  for (const type of types.data.result) {
    if (type.primaryAttribute) kinds.set(type.id, type.primaryAttribute.name);
  }
  expect(kinds.get(6)).toBe(kinds.get(11));
  return kinds;
}

interface Paired {
  id: number;
  activityTypeId: number;
  activityDate: string;
  previous?: { id?: number } | null;
  next?: { id?: number } | null;
}

/**
 * Eleven types from 1 Nov, read in two groups, paired with Send Email (`way`): the whole read's pair of each
 * record, and the same read with max_items 20 past the first group, so that Send Email's group is cut.
 */
export async function cutGroupedRead(
  mkto: MarketoMcp,
  way: "previous" | "next",
): Promise<{ truth: Map<number, number | null>; cut: ToolAnswer<{ result: Paired[]; complete: boolean }> }> {
  const query = {
    sinceDatetime: "2026-11-01T00:00:00Z",
    activityTypeIds:
      "Click Email,Visit Webpage,Fill Out Form,Click Link,Email Delivered,Email Bounced,Unsubscribe Email,Open Email,New Lead,Change Data Value,Send Email",
  };
  const read = { ...READ, query_parameters: query, [way]: "Send Email" };
  const whole = await mkto.results(await mkto.ok<{ result: Paired[] }>({ ...read, max_items: 100_000 }));
  const truth = new Map(whole.map((r) => [r.id, r[way]?.id ?? null]));
  const firstGroup = whole.filter((r) => r.activityTypeId !== 6).length;
  const cut = await mkto.ok<{ result: Paired[]; complete: boolean }>({ ...read, max_items: firstGroup + 20 });
  expect(cut.data.complete).toBe(false);
  return { truth, cut };
}
