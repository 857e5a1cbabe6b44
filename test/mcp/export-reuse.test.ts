import { describe, expect, it } from "vitest";
import { buildDataSet } from "../../src/sandbox/marketo/seed.js";
import { marketoWorkspace } from "../helpers/fixtures.js";
import { callMarketo, iso, marketoOverMcp, NO_CALL_WINDOW, runningClock } from "../helpers/marketo-mcp.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

/**
 * Issue 27, agent trial s4 (T01/T05/T06/T09/T19): a whole-database question after another one answers from
 * the export that just ran (same export type and body but fields, fields among its own) instead of running
 * a fresh one; the answer says so and how to get a fresh export, which the test does. Another workspace
 * never gets the rows, and a write through the tool drops them. The truth is the sandbox's own data set.
 */
interface Answer {
  result: Record<string, unknown>[];
  complete: boolean;
  calls_used: number;
  computed?: { read: number; matched: number; groups?: number };
}

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 11, 1, 12);
const SEED = 11;
const LEADS = 600;
const world = buildDataSet({ leadCount: LEADS, seed: SEED, now: T0 });
const FROM = iso(T0 - 120 * DAY);
const TO = iso(T0 - 60_000);

/** The sandbox's clock: T0 when it starts, then running (its export jobs complete as time passes). */
const mkto = marketoOverMcp(
  {
    leadCount: LEADS,
    seed: SEED,
    now: runningClock(T0),
    bulkJobMs: 20,
    rateLimit: 1e6,
  },
  undefined,
  NO_CALL_WINDOW,
);

async function run(on: McpSession, args: Record<string, unknown>) {
  const answer = await callMarketo<Answer>(on, args);
  expect(answer.result.isError, answer.text).toBeFalsy();
  return answer;
}

function leadsExport(fields: string[], extra: Record<string, unknown> = {}, endAt = TO) {
  return {
    method: "POST",
    endpoint: "/bulk/v1/leads/export/create.json",
    body: { fields, format: "CSV", filter: { createdAt: { startAt: FROM, endAt } } },
    run_to_completion: true,
    ...extra,
  };
}

/** Leads created in the span with a score above `score`, counted by country (the sandbox's truth). */
function countryCounts(score: number): Record<string, number> {
  const lo = Date.parse(FROM);
  const hi = Date.parse(TO);
  const counts: Record<string, number> = {};
  for (const lead of world.leads.values()) {
    const at = Number(lead.createdAt);
    if (at < lo || at > hi || !(Number(lead.leadScore) > score)) continue;
    const country = String(lead.country ?? "");
    counts[country] = (counts[country] ?? 0) + 1;
  }
  return counts;
}

const asCounts = (rows: Record<string, unknown>[]) =>
  Object.fromEntries(rows.map((row) => [String(row.country ?? ""), Number(row.count)]));

const exportsCreated = () =>
  mkto.fixture.sandbox.stats().callsByPath["/bulk/v1/leads/export/create.json"] ?? 0;

describe("a recent export answers the next whole-database question", () => {
  it("reuses the rows for fewer fields with its own where and count_by, says so, and a new endAt exports afresh", async () => {
    const first = await run(mkto.session, leadsExport(["id", "email", "country", "leadScore"]));
    expect(first.data.calls_used).toBeGreaterThan(0);
    const created = exportsCreated();
    expect(created).toBeGreaterThan(1);

    const again = await run(
      mkto.session,
      leadsExport(["id", "country"], { where: "leadScore > 70", count_by: "country" }),
    );
    expect(exportsCreated()).toBe(created);
    expect(again.data.calls_used).toBe(0);
    expect(again.text).toMatch(/answered from the same export run .* ago \(finished 20\d\d-/);
    expect(again.text).toContain("for a fresh export now, change the body's filter (e.g. its endAt");
    expect(asCounts(again.data.result)).toEqual(countryCounts(70));

    // Doing what it says: another endAt runs a fresh export, with the same figures.
    const fresh = await run(
      mkto.session,
      leadsExport(["id", "country"], { where: "leadScore > 70", count_by: "country" }, iso(T0)),
    );
    expect(exportsCreated()).toBeGreaterThan(created);
    expect(fresh.text).not.toContain("answered from the same export run");
    expect(asCounts(fresh.data.result)).toEqual(countryCounts(70));
  });

  it("is not reused for a field the kept export lacks", async () => {
    await run(mkto.session, leadsExport(["id", "email"]));
    const created = exportsCreated();
    const other = await run(mkto.session, leadsExport(["id", "email", "company"]));
    expect(exportsCreated()).toBeGreaterThan(created);
    expect(other.text).not.toContain("answered from the same export run");
  });

  it("is never served to another workspace, even on the same Marketo instance", async () => {
    await run(mkto.session, leadsExport(["id", "country"]));
    const created = exportsCreated();
    const elsewhere = await mcpSession(marketoWorkspace(mkto.fixture.sandbox));
    try {
      const theirs = await run(elsewhere, leadsExport(["id", "country"]));
      expect(exportsCreated()).toBeGreaterThan(created);
      expect(theirs.data.calls_used).toBeGreaterThan(0);
      expect(theirs.text).not.toContain("answered from the same export run");
    } finally {
      await elsewhere.close();
    }
  });

  it("is dropped after a write through the tool", async () => {
    await run(mkto.session, leadsExport(["id", "leadScore"]));
    const created = exportsCreated();
    const lead = [...world.leads.values()][0];
    await run(mkto.session, {
      method: "POST",
      endpoint: "/rest/v1/leads.json",
      body: { action: "updateOnly", lookupField: "id", input: [{ id: lead?.id, leadScore: 1 }] },
    });
    const after = await run(mkto.session, leadsExport(["id", "leadScore"]));
    expect(exportsCreated()).toBeGreaterThan(created);
    expect(after.text).not.toContain("answered from the same export run");
  });
});
