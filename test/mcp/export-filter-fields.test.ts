import { describe, expect, it } from "vitest";
import { buildDataSet } from "../../src/sandbox/marketo/seed.js";
import { iso, marketoOverMcp, runningClock } from "../helpers/marketo-mcp.js";

/**
 * where and order_by on a lead export do not add columns to its file (issue 27, agent trial N05: the CSV
 * gained an "unsubscribed" column nobody asked for). A field they read that `fields` leaves out is exported
 * for them and left out of the CSV and JSON files and the preview. Through MCP on the sandbox, whose data
 * set (same seed, same clock) is the truth: one job (a static list), and a span split into several jobs.
 */
interface Answer {
  result: Record<string, unknown>[];
  computed?: { read: number; matched: number };
}

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 11, 1, 12);
const SEED = 7;
const LEADS = 2_000;
const world = buildDataSet({ leadCount: LEADS, seed: SEED, now: T0 });

const mkto = marketoOverMcp({
  leadCount: LEADS,
  seed: SEED,
  now: runningClock(T0),
  bulkJobMs: 50,
  rateLimit: 1_000_000,
});
const run = (args: Record<string, unknown>) => mkto.ok<Answer>(args);
const whole = (uri: string) => mkto.whole(uri);

/** The CSV's header and the JSON file's rows, both linked by the answer. */
async function files(links: { uri: string; mimeType: string }[]) {
  const csv = await whole(links.find((l) => l.mimeType === "text/csv")?.uri ?? "");
  const json = JSON.parse(
    await whole(links.find((l) => l.mimeType === "application/json")?.uri ?? ""),
  ) as Record<string, unknown>[];
  const lines = csv.trimEnd().split("\r\n");
  return { header: lines[0], rows: lines.length - 1, json };
}

describe("a lead export's where and order_by read fields the file leaves out", () => {
  it("one job: unsubscribed and leadScore are read, the files hold only email and firstName", async () => {
    const members = [...(world.lists.find((list) => list.id === 1001)?.members ?? [])]
      .map((id) => world.leads.get(id))
      .filter((lead) => lead !== undefined);
    const want = members.filter((lead) => !lead.unsubscribed);
    const { links, data } = await run({
      method: "POST",
      endpoint: "/bulk/v1/leads/export/create.json",
      body: { fields: ["email", "firstName"], format: "CSV", filter: { staticListId: 1001 } },
      run_to_completion: true,
      where: "unsubscribed == false",
      order_by: "-leadScore",
    });
    expect(data.computed?.matched).toBe(want.length);
    expect(Object.keys(data.result[0] ?? {})).toEqual(["email", "firstName"]);
    const { header, rows, json } = await files(links);
    expect(header).toBe("email,firstName");
    expect(rows).toBe(want.length);
    expect(new Set(json.flatMap((row) => Object.keys(row)))).toEqual(new Set(["email", "firstName"]));
    // Sorted by the score the file does not show.
    const scoreOf = new Map(members.map((lead) => [lead.email, Number(lead.leadScore)]));
    const scores = json.map((row) => scoreOf.get(String(row.email)) ?? Number.NaN);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("a span split into jobs: the filter's field and the join's key stay out of the files", async () => {
    const to = T0 - 60_000;
    const from = to - 70 * DAY;
    const { links, data } = await run({
      method: "POST",
      endpoint: "/bulk/v1/leads/export/create.json",
      body: {
        fields: ["email"],
        format: "CSV",
        filter: { createdAt: { startAt: iso(from), endAt: iso(to) } },
      },
      run_to_completion: true,
      where: "leadScore > 50",
    });
    const lo = Date.parse(iso(from));
    const hi = Date.parse(iso(to));
    const want = [...world.leads.values()].filter(
      (l) => Number(l.createdAt) >= lo && Number(l.createdAt) <= hi && Number(l.leadScore) > 50,
    );
    expect(want.length).toBeGreaterThan(0);
    expect(data.computed?.matched).toBe(want.length);
    const { header, rows, json } = await files(links);
    expect(header).toBe("email");
    expect(rows).toBe(want.length);
    expect(new Set(json.flatMap((row) => Object.keys(row)))).toEqual(new Set(["email"]));
  });
});
