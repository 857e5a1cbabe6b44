/**
 * An activity that names an asset names the record the API gives for its id: primaryAttributeValueId and
 * primaryAttributeValue of Fill Out Form are a form's id and name in the Asset API, of the email activities
 * an email's, of Add/Remove List a static list's (Asset and Lead DB APIs), of Change Status in Progression
 * a program's (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-activity-extract,
 * the primaryAttributeValueIds and primaryAttributeValues tables). Visit Webpage and Click Link name a
 * landing page's URL when their id is a landing page's, else one of the site's own pages, one name per id.
 * Trial s10, N64: fill-outs named "Contact Us Form" 1001 while form 1001 was "Event Registration Form".
 * Generated: the seed, how far back the read starts, and writes that log activities before it (list adds
 * and removals, program status changes, requested campaigns).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Harness, type Json, jsonInit, startHarness } from "../../helpers/marketo-sandbox.js";

const DAY_MS = 86_400_000;
const CLOCK = Date.UTC(2026, 10, 20, 15, 30);
const LEADS = 150;
/** At most ten type ids per call (activities.json): the types that name an asset, in two reads. */
const TYPE_READS = ["1,2,3,6,7,8,10,11,24,25", "27,104"];
const EMAIL_TYPES = new Set([6, 7, 8, 10, 11, 27]);
const PAGE_TYPES = new Set([1, 3]);

interface Activity {
  activityTypeId: number;
  primaryAttributeValueId?: number;
  primaryAttributeValue?: string;
}

const leadId = fc.integer({ min: 1, max: LEADS });
const list = fc.integer({ min: 1001, max: 1010 });
const write = fc.oneof(
  fc.record({ kind: fc.constant("list" as const), list, leadId }),
  fc.record({ kind: fc.constant("unlist" as const), list, leadId }),
  fc.record({
    kind: fc.constant("status" as const),
    program: fc.integer({ min: 1001, max: 1030 }),
    step: fc.nat(),
    leadId,
  }),
  fc.record({ kind: fc.constant("campaign" as const), campaign: fc.constantFrom(1001, 1002, 1008), leadId }),
);
type Write = typeof write extends fc.Arbitrary<infer W> ? W : never;

/** A status of the program's own channel (one outside it is refused), by the generated step. */
async function statusOf(h: Harness, program: number, step: number): Promise<string> {
  const channel = (await h.call(`/rest/asset/v1/program/${program}.json`)).result?.[0]?.channel;
  const answer = await h.call(
    `/rest/asset/v1/channel/byName.json?name=${encodeURIComponent(String(channel))}`,
  );
  const statuses = (answer.result?.[0]?.progressionStatuses ?? []) as { name: string }[];
  expect(statuses.length).toBeGreaterThan(0);
  return (statuses[step % statuses.length] as { name: string }).name;
}

async function apply(h: Harness, w: Write): Promise<void> {
  const input = [{ id: w.leadId }];
  if (w.kind === "list") await h.call(`/rest/v1/lists/${w.list}/leads.json`, jsonInit("POST", { input }));
  if (w.kind === "unlist")
    await h.call(`/rest/v1/lists/${w.list}/leads.json?id=${w.leadId}`, { method: "DELETE" });
  if (w.kind === "campaign")
    await h.call(`/rest/v1/campaigns/${w.campaign}/trigger.json`, jsonInit("POST", { input }));
  if (w.kind === "status") {
    const statusName = await statusOf(h, w.program, w.step);
    await h.call(
      `/rest/v1/programs/${w.program}/members/status.json`,
      jsonInit("POST", { statusName, input: [{ leadId: w.leadId }] }),
    );
  }
}

/** Every activity of the asset-naming types from `since` to the end, read page by page. */
async function readActivities(h: Harness, since: number): Promise<Activity[]> {
  const out: Activity[] = [];
  const sinceText = encodeURIComponent(new Date(since).toISOString());
  for (const types of TYPE_READS) {
    let token = (await h.call(`/rest/v1/activities/pagingtoken.json?sinceDatetime=${sinceText}`))
      .nextPageToken;
    for (let calls = 0; ; calls++) {
      const page: Json = await h.call(
        `/rest/v1/activities.json?activityTypeIds=${types}&nextPageToken=${token}`,
      );
      expect(page.success).toBe(true);
      out.push(...((page.result ?? []) as unknown as Activity[]));
      if (!page.moreResult) break;
      token = page.nextPageToken;
      expect(calls).toBeLessThan(500);
    }
  }
  return out;
}

/** The name(s) the API gives for the record an activity's id points at; undefined for a site page. */
async function namesFor(h: Harness, a: Activity): Promise<string[] | undefined> {
  const id = a.primaryAttributeValueId;
  const nameOf = async (path: string) => {
    const answer = await h.call(path);
    expect(answer.success, `${path}: ${JSON.stringify(answer.errors)}`).toBe(true);
    return answer.result?.[0]?.name as string | undefined;
  };
  if (a.activityTypeId === 2) return [String(await nameOf(`/rest/asset/v1/form/${id}.json`))];
  if (EMAIL_TYPES.has(a.activityTypeId)) return [String(await nameOf(`/rest/asset/v1/email/${id}.json`))];
  if (a.activityTypeId === 104) return [String(await nameOf(`/rest/asset/v1/program/${id}.json`))];
  if (a.activityTypeId === 24 || a.activityTypeId === 25)
    return [
      String(await nameOf(`/rest/asset/v1/staticList/${id}.json`)),
      String(await nameOf(`/rest/v1/lists/${id}.json`)),
    ];
  // Visit Webpage, Click Link: a landing page's URL (less its scheme) when the id is a landing page's.
  const page = (await h.call(`/rest/asset/v1/landingPage/${id}.json`)).result?.[0];
  return page ? [String(page.URL).replace(/^https?:\/\//, "")] : undefined;
}

async function checkNames(h: Harness, activities: readonly Activity[]): Promise<void> {
  const known = new Map<string, string[] | undefined>();
  const sitePages = new Map<number, string>();
  for (const a of activities) {
    expect(a.primaryAttributeValueId, JSON.stringify(a)).toEqual(expect.any(Number));
    const kind = EMAIL_TYPES.has(a.activityTypeId) ? "email" : String(a.activityTypeId);
    const key = `${kind}:${a.primaryAttributeValueId}`;
    if (!known.has(key)) known.set(key, await namesFor(h, a));
    const names = known.get(key);
    if (names) for (const name of names) expect(a.primaryAttributeValue, key).toBe(name);
    else {
      expect(PAGE_TYPES.has(a.activityTypeId), key).toBe(true);
      const id = a.primaryAttributeValueId as number;
      expect(a.primaryAttributeValue, key).toBe(sitePages.get(id) ?? a.primaryAttributeValue);
      sitePages.set(id, a.primaryAttributeValue as string);
    }
  }
}

describe("activities that name an asset", () => {
  it("name it as the API gives the record of their id", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 61 }),
        fc.array(write, { maxLength: 6 }),
        async (seed, daysBack, writes) => {
          const h = await startHarness({ leadCount: LEADS, seed, now: () => CLOCK, rateLimit: 1_000_000 });
          try {
            for (const w of writes) await apply(h, w);
            const activities = await readActivities(h, CLOCK - daysBack * DAY_MS);
            expect(activities.some((a) => a.activityTypeId === 2) || daysBack < 30).toBe(true);
            await checkNames(h, activities);
          } finally {
            await h.close();
          }
        },
      ),
      { numRuns: 12, seed: 20261203 },
    );
  }, 120_000);
});
