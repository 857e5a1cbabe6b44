import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDataSet } from "../../src/sandbox/marketo/seed.js";
import { marketoWorkspace } from "../helpers/fixtures.js";
import {
  callMarketo,
  iso,
  marketoOverMcp,
  NO_CALL_WINDOW,
  runningClock,
  type ToolAnswer,
} from "../helpers/marketo-mcp.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

/**
 * Trial 2026-12-03, N47: an export of 106 windows cut by the call's 120 s deadline threw away what it had
 * read and sent the agent to split the period by hand (three more calls). A cut run now keeps what it read,
 * and its answer says to call again with the same arguments, which these tests do, literally, until the
 * answer comes: its rows are those of a run never cut, byte for byte, and no window is exported twice.
 */
interface Answer {
  result: Record<string, unknown>[];
  computed?: { read: number; matched: number };
}

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 11, 1, 12);
const SEED = 5;
const LEADS = 400;
const world = buildDataSet({ leadCount: LEADS, seed: SEED, now: T0 });

const mkto = marketoOverMcp(
  {
    leadCount: LEADS,
    seed: SEED,
    now: runningClock(T0),
    bulkJobMs: 100,
    rateLimit: 1e6,
  },
  undefined,
  NO_CALL_WINDOW,
);

/** A session on the sandbox with its own workspace, so its own connector and kept exports. */
async function sessionWith(env: NodeJS.ProcessEnv): Promise<McpSession> {
  return mcpSession(marketoWorkspace(mkto.fixture.sandbox, {}, env));
}

let roomy: McpSession;
beforeAll(async () => {
  roomy = await sessionWith({});
});
afterAll(async () => {
  await roomy?.close();
});

function leadsExport(from: number, to: number, extra: Record<string, unknown> = {}) {
  return {
    method: "POST",
    endpoint: "/bulk/v1/leads/export/create.json",
    body: {
      fields: ["id", "email", "leadScore"],
      format: "CSV",
      filter: { createdAt: { startAt: iso(from), endAt: iso(to) } },
    },
    run_to_completion: true,
    ...extra,
  };
}

/** Jobs enqueued at the sandbox: each one is a window exported. */
const enqueued = () =>
  Object.entries(mkto.fixture.sandbox.stats().callsByPath)
    .filter(([path]) => /^\/bulk\/v1\/leads\/export\/[^/]+\/enqueue\.json$/.test(path))
    .reduce((sum, [, count]) => sum + count, 0);

/** A linked file's CSV text (the answer's second link). */
async function csvOf(on: McpSession, answer: ToolAnswer<Answer>): Promise<string> {
  const csv = answer.links.find((link) => link.mimeType === "text/csv");
  expect(csv, answer.text).toBeDefined();
  const { contents } = await on.client.readResource({ uri: `${csv?.uri}` });
  return (contents[0] as { text: string }).text;
}

const CONTINUE =
  /(\d+) of (\d+) windows read(?: \([\d,]+ rows so far\))? and kept: call again with the same arguments to continue from (\S+) \(about (\d+) windows? left\)/;

/**
 * Calls `args` on `on` until an answer comes, doing what each cut's answer says; returns the answer, the
 * cuts and every progress message.
 */
async function untilAnswered(
  on: McpSession,
  args: Record<string, unknown>,
  span: { start: number; windows: number },
) {
  const { start, windows } = span;
  let cuts = 0;
  let windowsRead = 0;
  for (;;) {
    const messages: string[] = [];
    const answer = await callMarketo<Answer>(on, args, (p) => messages.push(p.message ?? ""));
    if (cuts > 0) {
      // It resumes where the last call stopped.
      expect(messages, messages.join("\n")).toContainEqual(
        expect.stringMatching(new RegExp(`^Resuming at window ${windowsRead + 1} of ${windows} `)),
      );
    }
    if (!answer.result.isError) return { answer, cuts };
    cuts += 1;
    expect(cuts, answer.text).toBeLessThan(windows * 2);
    const said = CONTINUE.exec(answer.text);
    expect(said, answer.text).not.toBeNull();
    const [, read, of, from, left] = said ?? [];
    expect(Number(of)).toBe(windows);
    expect(Number(read)).toBeGreaterThanOrEqual(windowsRead);
    expect(Number(left)).toBe(windows - Number(read));
    windowsRead = Number(read);
    expect(answer.text).not.toContain("Ask for the period in parts");
    // The date it continues from is where window read + 1 starts.
    expect(Date.parse(`${from}`)).toBe(start + windowsRead * 31 * DAY);
  }
}

describe("a windowed export cut by the deadline continues when called again", () => {
  it("the same call again, as the cut's answer says, ends with the rows of a run never cut, each window exported once (property over the cut points)", async () => {
    const from = T0 - 330 * DAY;
    const to = T0 - 82 * DAY;
    const windows = Math.ceil((to - from) / (31 * DAY));
    const args = leadsExport(from, to, { where: "leadScore > 40", order_by: "-leadScore" });
    const whole = await callMarketo<Answer>(roomy, args);
    expect(whole.result.isError, whole.text).toBeFalsy();
    const expected = await csvOf(roomy, whole);
    const wantIds = [...world.leads.values()].filter(
      (lead) =>
        Number(lead.createdAt) >= Date.parse(iso(from)) &&
        Number(lead.createdAt) <= Date.parse(iso(to)) &&
        Number(lead.leadScore) > 40,
    );
    expect(expected.trimEnd().split("\r\n")).toHaveLength(wantIds.length + 1);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1_000, max: 2_000 }), async (deadlineMs) => {
        const on = await sessionWith({ MARTECH_STEPS_DEADLINE_MS: String(deadlineMs) });
        try {
          const before = enqueued();
          const { answer, cuts } = await untilAnswered(on, args, { start: Date.parse(iso(from)), windows });
          expect(cuts, `deadline ${deadlineMs} ms`).toBeGreaterThan(0);
          expect(answer.text).toMatch(
            /it resumed at window \d+ of \d+: the (\d+ )?earlier calls? \(cut short\) read/,
          );
          expect(answer.data.computed).toEqual(whole.data.computed);
          expect(await csvOf(on, answer)).toBe(expected);
          expect(enqueued() - before, JSON.stringify(mkto.fixture.sandbox.stats().callsByPath)).toBe(windows);
          // The whole run replaced the partial one: the same call again answers from it.
          const again = await callMarketo<Answer>(on, args);
          expect(again.text).toContain("answered from the same export run");
          expect(enqueued() - before).toBe(windows);
        } finally {
          await on.close();
        }
      }),
      { seed: 47, numRuns: 3 },
    );
  }, 120_000);

  it("a cancelled run keeps the windows read too: the same call again resumes after them", async () => {
    const from = T0 - 330 * DAY;
    const to = T0 - 82 * DAY;
    const args = leadsExport(from, to, { where: "leadScore > 40", order_by: "-leadScore" });
    const whole = await callMarketo<Answer>(roomy, args);
    const on = await sessionWith({});
    try {
      const cancels = () =>
        Object.keys(mkto.fixture.sandbox.stats().callsByPath).filter((path) => path.endsWith("/cancel.json"))
          .length;
      const before = cancels();
      const controller = new AbortController();
      const cut = on.client.callTool({ name: "marketo_api_call", arguments: args }, undefined, {
        signal: controller.signal,
        onprogress: (p) => {
          if (/^Export 2 of \d+ read/.test(p.message ?? "")) controller.abort();
        },
      });
      await expect(cut).rejects.toThrow();
      // The server stops on the cancel and cancels the job left running at Marketo, after keeping the rest.
      for (let waited = 0; cancels() === before && waited < 5_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const messages: string[] = [];
      const again = await callMarketo<Answer>(on, args, (p) => messages.push(p.message ?? ""));
      expect(again.result.isError, again.text).toBeFalsy();
      // At least the two windows read before the cancel are not read again.
      const at = messages.map((m) => /^Resuming at window (\d+) of \d+ /.exec(m)?.[1]).find(Boolean);
      expect(Number(at), messages.join("\n")).toBeGreaterThanOrEqual(3);
      expect(await csvOf(on, again)).toBe(await csvOf(roomy, whole));
    } finally {
      await on.close();
    }
  });
});
