/**
 * Change Data Value (13) activities hold the field's values: read through the activities API, per lead and
 * field in the order given, each change's Old Value is the New Value of the one before, the last New Value
 * is what the leads API reads in the field, and every value is one the field holds on some seeded lead
 * (Adobe's Get Lead Changes example reads plain values, newValue "FirstName_6176" and oldValue
 * "FirstName_4914": https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/activities).
 * Trial s10, N72: New Values read "Qualified (updated)" and the lead's field never changed. Get Lead
 * Changes gives the same values. Generated: the seed, and updates through Sync Leads before the read.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildDataSet } from "../../../src/sandbox/marketo/seed.js";
import { type Harness, type Json, jsonInit, startHarness } from "../../helpers/marketo-sandbox.js";

const DAY_MS = 86_400_000;
const CLOCK = Date.UTC(2026, 10, 20, 15, 30);
const LEADS = 150;
/** The fields the seeded log changes. */
const FIELDS = ["leadScore", "title", "leadStatus", "company", "customerTier"];

interface Change {
  id: number;
  leadId: number;
  primaryAttributeValue: string;
  attributes: { name: string; value: unknown }[];
}

const update = fc.record({
  leadId: fc.integer({ min: 1, max: LEADS }),
  field: fc.constantFrom(...FIELDS),
  pick: fc.nat(),
});

/** Reads a paged activities endpoint from the window's start to its end. */
async function readAll(h: Harness, path: string): Promise<Json[]> {
  const since = encodeURIComponent(new Date(CLOCK - 61 * DAY_MS).toISOString());
  let token = (await h.call(`/rest/v1/activities/pagingtoken.json?sinceDatetime=${since}`)).nextPageToken;
  const out: Json[] = [];
  for (let calls = 0; ; calls++) {
    const page = await h.call(`${path}&nextPageToken=${token}`);
    expect(page.success).toBe(true);
    out.push(...((page.result ?? []) as Json[]));
    if (!page.moreResult) return out;
    token = page.nextPageToken;
    expect(calls).toBeLessThan(500);
  }
}

const attr = (a: Change, name: string) => a.attributes.find((x) => x.name === name)?.value;
const text = (v: unknown) => (v === null || v === undefined ? "" : String(v));

/** Each field's values across the seeded leads, as the activities write them. */
function seededValues(seed: number): Map<string, Set<string>> {
  const world = buildDataSet({ leadCount: LEADS, seed, now: CLOCK });
  return new Map(FIELDS.map((f) => [f, new Set([...world.leads.values()].map((l) => text(l[f])))]));
}

/** A score is any whole number; a text field's value is one some seeded lead holds in it (or empty). */
function holds(values: Map<string, Set<string>>, field: string, value: unknown): boolean {
  if (field === "leadScore") return /^\d+$/.test(text(value));
  return values.get(field)?.has(text(value)) === true;
}

async function checkChains(h: Harness, values: Map<string, Set<string>>): Promise<void> {
  const describe = await h.call("/rest/v1/leads/describe.json");
  const restName = new Map(
    (describe.result ?? []).map((f) => [f.displayName as string, (f.rest as { name: string }).name]),
  );
  const changes = (await readAll(h, "/rest/v1/activities.json?activityTypeIds=13")) as unknown as Change[];
  expect(changes.length).toBeGreaterThan(0);
  const chains = new Map<string, Change[]>();
  for (const c of changes) {
    const key = `${c.leadId}:${restName.get(c.primaryAttributeValue)}`;
    chains.set(key, [...(chains.get(key) ?? []), c]);
  }
  const ids = [...new Set(changes.map((c) => c.leadId))];
  const leads = await h.call(`/rest/v1/leads.json?filterType=id&filterValues=${ids}&fields=${FIELDS}`);
  const byId = new Map((leads.result ?? []).map((l) => [l.id as number, l]));
  for (const [key, chain] of chains) {
    const [leadId, field] = key.split(":") as [string, string];
    chain.forEach((c, i) => {
      expect(attr(c, "New Value"), key).not.toBe(attr(c, "Old Value"));
      if (i > 0) expect(attr(c, "Old Value"), key).toBe(attr(chain[i - 1] as Change, "New Value"));
      for (const name of ["New Value", "Old Value"])
        expect(holds(values, field, attr(c, name)), `${key} ${name}`).toBe(true);
    });
    const last = chain.at(-1) as Change;
    expect(attr(last, "New Value"), key).toBe(text(byId.get(Number(leadId))?.[field]));
  }
  // Get Lead Changes gives the same values, as its fields[].newValue / oldValue.
  const viaChanges = await readAll(h, `/rest/v1/activities/leadchanges.json?fields=${FIELDS}`);
  const byActivity = new Map(changes.map((c) => [c.id, c]));
  for (const c of viaChanges.filter((x) => x.activityTypeId === 13)) {
    const [f] = c.fields as { newValue: unknown; oldValue: unknown }[];
    const a = byActivity.get(c.id as number) as Change;
    expect([text(f?.newValue), text(f?.oldValue)]).toEqual([attr(a, "New Value"), attr(a, "Old Value")]);
  }
}

describe("Change Data Value activities", () => {
  it("hold the values the lead's field held before and after each change", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.array(update, { maxLength: 5 }),
        async (seed, updates) => {
          const values = seededValues(seed);
          const h = await startHarness({ leadCount: LEADS, seed, now: () => CLOCK, rateLimit: 1_000_000 });
          try {
            for (const u of updates) {
              const pool = [...(values.get(u.field) ?? [])].filter((v) => v !== "");
              const raw = pool[u.pick % pool.length] as string;
              const value = u.field === "leadScore" ? Number(raw) : raw;
              const body = {
                action: "updateOnly",
                lookupField: "id",
                input: [{ id: u.leadId, [u.field]: value }],
              };
              expect((await h.call("/rest/v1/leads.json", jsonInit("POST", body))).success).toBe(true);
            }
            await checkChains(h, values);
          } finally {
            await h.close();
          }
        },
      ),
      { numRuns: 10, seed: 20261203 },
    );
  }, 120_000);
});
