/**
 * Issue 27 (trial s7, N17): an export of several 31-day windows that the call's deadline cuts says what was
 * read and how to get the period in parts, not "poll export X", whose file held one empty month. Its advice is
 * followed here until every part finishes: the parts' rows add up to the whole period's, counted by a run
 * with no deadline to speak of on the same data. That advice is only for a cut whose rows cannot be kept for
 * the same call again (here: more bytes than MARTECH_STEPS_EXPORT_MAX_BYTES); test/mcp/export-resume.test.ts
 * follows the advice of one that can.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

const DAY = 86_400_000;
const second = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

let slow: MarketoFixture;
let session: McpSession;
let roomy: MarketoFixture;
let whole: McpSession;

beforeAll(async () => {
  // A job takes 400 ms; a call may take 2.5 s: a few windows a call.
  slow = await marketoFixture(
    { bulkJobMs: 400 },
    { MARTECH_STEPS_DEADLINE_MS: "2500", MARTECH_STEPS_EXPORT_MAX_BYTES: "2000" },
  );
  session = await mcpSession(slow.workspace);
  roomy = await marketoFixture({ bulkJobMs: 50 });
  whole = await mcpSession(roomy.workspace);
}, 60_000);
afterAll(async () => {
  await session?.close();
  await slow?.close();
  await whole?.close();
  await roomy?.close();
});

const exportOf = (startAt: string, endAt: string) => ({
  method: "POST",
  endpoint: "/bulk/v1/leads/export/create.json",
  body: { fields: ["id", "email"], format: "CSV", filter: { createdAt: { startAt, endAt } } },
  run_to_completion: true,
  count_by: "firstName",
});

async function call(on: McpSession, startAt: string, endAt: string) {
  const result = (await on.client.callTool({
    name: "marketo_api_call",
    arguments: exportOf(startAt, endAt),
  })) as CallToolResult;
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  const groups =
    (result.structuredContent as { result?: Record<string, unknown>[] } | undefined)?.result ?? [];
  return { result, text, groups };
}

/** The rows an answer counted: "(the counts add up to 1,108; …)". */
const rowsOf = (text: string) =>
  Number(/the counts add up to ([\d,]+)/.exec(text)?.[1]?.replace(/,/g, "") ?? Number.NaN);

it("a deadline-cut export of many windows whose rows cannot be kept says how to go on in parts, which works", async () => {
  // The seeded leads were created 90 to 700 days ago: 240 days of them are eight windows.
  const day = Math.floor(Date.now() / DAY) * DAY + 12 * 3_600_000 + 1_000;
  const [from, to] = [second(day - 400 * DAY), second(day - 160 * DAY)];
  const { text: all } = await call(whole, from, to);
  const expected = rowsOf(all);
  expect(expected, all).toBeGreaterThan(0);
  let sum = 0;
  let cuts = 0;
  const todo: [string, string][] = [[from, to]];
  let calls = 0;
  while (todo.length > 0 && cuts < 20 && calls++ < 40) {
    const [startAt, endAt] = todo.shift() as [string, string];
    const part = await call(session, startAt, endAt);
    if (!part.result.isError) {
      expect(rowsOf(part.text), part.text).toBeGreaterThan(0);
      sum += rowsOf(part.text);
      continue;
    }
    // A cut before any window's rows were read keeps the jobs it started: followed as it says.
    if (/0 of \d+ windows read and kept: call again with the same arguments/.test(part.text)) {
      todo.unshift([startAt, endAt]);
      continue;
    }
    cuts += 1;
    expect(part.text).toMatch(
      /runs as \d+ jobs of at most 31 days and did not finish within the call's 3 s deadline/,
    );
    expect(part.text).not.toMatch(/Poll GET/);
    expect(part.text).toContain("which this call cannot return, nor keep for a next call");
    expect(part.text).not.toContain("call again with the same arguments");
    // "Ask for the period in parts, a call each: createdAt A → B (what was read), then B → C, …"
    const said = /createdAt (\S+) → (\S+) \(what was read\), then (\S+) → (\S+),/.exec(part.text);
    const one = /createdAt (\S+) → (\S+) first \(one job\), then on from (\S+)\./.exec(part.text);
    if (said) todo.unshift([said[1] ?? "", said[2] ?? ""], [said[3] ?? "", said[4] ?? ""]);
    else if (one) todo.unshift([one[1] ?? "", one[2] ?? ""], [one[3] ?? "", endAt]);
    else throw new Error(`no parts in: ${part.text}`);
  }
  expect(cuts).toBeGreaterThan(0);
  expect(todo).toEqual([]);
  expect(sum).toBe(expected);
}, 120_000);
