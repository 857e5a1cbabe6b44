import { describe, expect, it } from "vitest";
import { buildDataSet } from "../../src/sandbox/marketo/seed.js";
import { iso, marketoOverMcp, NO_CALL_WINDOW, runningClock } from "../helpers/marketo-mcp.js";

/**
 * An export of a long span (issue 27, agent trial T09: 82 jobs, half of them empty): the answer and the
 * progress say how many windows were empty and that Marketo gives no earliest createdAt (and, when most were,
 * which windows held rows: a call for that range gets the same rows, which is done here); a split export
 * cut by max_items says complete: false and names the call that gets the rest, which is done here.
 * Through MCP on the sandbox; its data set (same seed, same clock) is the truth.
 */
interface Answer {
  result: Record<string, unknown>[];
  complete: boolean;
  computed?: { read: number; matched: number };
  extra?: { empty_windows?: number };
}

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 11, 1, 12);
const SEED = 7;
const LEADS = 2_000;
const world = buildDataSet({ leadCount: LEADS, seed: SEED, now: T0 });

const mkto = marketoOverMcp(
  {
    leadCount: LEADS,
    seed: SEED,
    now: runningClock(T0),
    bulkJobMs: 50,
    rateLimit: 1_000_000,
  },
  undefined,
  NO_CALL_WINDOW,
);
const run = (args: Record<string, unknown>) => mkto.ok<Answer>(args);
const whole = (uri: string) => mkto.whole(uri);

describe("a lead export over a long span", () => {
  const earliest = Math.min(...[...world.leads.values()].map((l) => Number(l.createdAt)));
  const exportOf = (from: number, to: number, extra: Record<string, unknown> = {}) => ({
    method: "POST",
    endpoint: "/bulk/v1/leads/export/create.json",
    body: { fields: ["id"], format: "CSV", filter: { createdAt: { startAt: iso(from), endAt: iso(to) } } },
    run_to_completion: true,
    ...extra,
  });

  it("says how many windows were empty, in the answer and the progress", async () => {
    const from = earliest - 75 * DAY;
    const to = earliest + 20 * DAY;
    const messages: string[] = [];
    const { data, text } = await mkto.ok<Answer>(exportOf(from, to), (p) => messages.push(p.message ?? ""));
    expect(data.extra?.empty_windows).toBe(2);
    expect(text).toContain(
      "2 windows had no rows (Marketo's API offers no call that gives the earliest createdAt",
    );
    expect(
      messages.some((m) => /Export 2 of 4 read: 0 rows so far, 2 empty windows/.test(m)),
      messages.join("\n"),
    ).toBe(true);
  });

  it("when most windows were empty, names the range that held rows, and a call for it reads the same rows", async () => {
    const from = earliest - 200 * DAY;
    const to = earliest + 60 * DAY;
    const all = await run(exportOf(from, to));
    expect(all.data.extra?.empty_windows).toBeGreaterThan(4);
    // "only windows 7 to 9 of 9 held rows: createdAt A → B, 3 windows, the range a next call … can ask for"
    const said =
      /only windows (\d+) to (\d+) of (\d+) held rows: createdAt (\S+) → (\S+), (\d+) windows?, the range a next call/.exec(
        all.text,
      );
    expect(said, all.text).not.toBeNull();
    const [, , , , startAt, endAt, count] = said ?? [];
    const held = await run(exportOf(Date.parse(`${startAt}`), Date.parse(`${endAt}`)));
    expect(held.data.computed?.read).toBe(all.data.computed?.read);
    expect(held.data.extra?.empty_windows ?? 0).toBeLessThan(all.data.extra?.empty_windows ?? 0);
    expect(held.text).toContain(`ran as ${count} export jobs`);
    const ids = async (answer: typeof all) =>
      (JSON.parse(await whole(answer.links[0]?.uri ?? "")) as { id: string }[]).map((r) => r.id).sort();
    expect(await ids(held)).toEqual(await ids(all));
  });

  it("cut by max_items, says complete: false, and the call it names gets the rest", async () => {
    const to = T0 - 60_000;
    const from = to - 100 * DAY;
    const lo = Date.parse(iso(from));
    const hi = Date.parse(iso(to));
    const want = [...world.leads.values()].filter(
      (l) => Number(l.createdAt) >= lo && Number(l.createdAt) <= hi,
    );
    expect(want.length).toBeGreaterThan(60);
    const first = await run(exportOf(from, to, { max_items: 40 }));
    expect(first.data.complete).toBe(false);
    const rest = /run the same call with body\.filter\.createdAt (\{[^}]+\})/.exec(first.text);
    expect(rest, first.text).not.toBeNull();
    const range = JSON.parse(rest?.[1] ?? "{}") as { startAt: string; endAt: string };
    const second = await run({
      ...exportOf(from, to),
      body: { fields: ["id"], format: "CSV", filter: { createdAt: range } },
    });
    expect(second.data.complete).toBe(true);
    const ids = new Set<number>();
    for (const answer of [first, second]) {
      const csv = await whole(answer.links.find((l) => l.mimeType === "text/csv")?.uri ?? "");
      for (const line of csv.trimEnd().split("\r\n").slice(1)) ids.add(Number(line));
    }
    expect(ids).toEqual(new Set(want.map((l) => l.id)));
  });
});
