import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect } from "vitest";
import type { MarketoSandboxOptions } from "../../src/sandbox/marketo/index.js";
import { type MarketoFixture, marketoFixture } from "./fixtures.js";
import { type McpSession, mcpSession } from "./mcp.js";

/**
 * The set-up the tests of marketo_api_call through MCP share: a Marketo sandbox whose data set is the truth
 * (built from the same seed and clock as the test's own copy), an MCP session on its workspace, and the
 * call and read helpers each of those files used to write for itself.
 */

/**
 * The sandbox's clock: `start` at its first reading (the sandbox builds its data set then, so a copy built
 * at `start` is the same data), then running with real time, so its export jobs complete as time passes.
 */
export function runningClock(start: number): () => number {
  let origin: number | undefined;
  return () => {
    origin ??= performance.now();
    return start + Math.floor(performance.now() - origin);
  };
}

/**
 * A sandbox clock that runs from `start` (runningClock) and can be held at an instant while a lead is created
 * there: `now` for the sandbox's options, `leadAt` once the sandbox is up. Each lead's email is
 * `<prefix><n>@<domain>`, so a test's where can keep its own leads.
 */
export function heldClock(start: number, email: { prefix: string; domain: string }) {
  const running = runningClock(start);
  let held: number | undefined;
  let made = 0;
  return {
    now: () => held ?? running(),
    /** A lead created in `on`'s sandbox at `at`; its id. */
    async leadAt(on: MarketoMcp, at: number): Promise<number> {
      made += 1;
      held = at;
      try {
        const { data } = await on.ok<{ result: { id?: unknown }[] }>({
          method: "POST",
          endpoint: "/rest/v1/leads.json",
          body: { action: "createOnly", input: [{ email: `${email.prefix}${made}@${email.domain}` }] },
        });
        return Number(data.result[0]?.id);
      } finally {
        held = undefined;
      }
    },
  };
}

/** A time as Marketo's datetimes read: ISO 8601 to the second, in UTC (2026-12-01T12:00:00Z). */
export const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

export interface ToolLink {
  uri: string;
  mimeType: string;
  title: string;
  description: string;
}

export interface ToolAnswer<T> {
  result: CallToolResult;
  /** The answer's text parts, joined by new lines. */
  text: string;
  /** Its first text part alone (the summary, or the error's message). */
  first: string;
  links: ToolLink[];
  data: T;
}

type Progress = (progress: { message?: string }) => void;

/** One marketo_api_call through `session`; `onprogress` receives its progress notifications. */
export async function callMarketo<T>(
  session: McpSession,
  args: Record<string, unknown>,
  onprogress?: Progress,
): Promise<ToolAnswer<T>> {
  const result = (await session.client.callTool(
    { name: "marketo_api_call", arguments: args },
    undefined,
    onprogress ? { onprogress } : {},
  )) as CallToolResult;
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  const links = result.content.filter((c) => c.type === "resource_link") as ToolLink[];
  const head = result.content[0];
  const first = head?.type === "text" ? head.text : "";
  return { result, text, first, links, data: result.structuredContent as unknown as T };
}

export interface MarketoMcp {
  readonly fixture: MarketoFixture;
  readonly session: McpSession;
  call<T>(args: Record<string, unknown>, onprogress?: Progress): Promise<ToolAnswer<T>>;
  /** As `call`, and fails the test on an error answer, with the answer's text as the message. */
  ok<T>(args: Record<string, unknown>, onprogress?: Progress): Promise<ToolAnswer<T>>;
  /** A linked file's whole text, in one resources/read. */
  whole(uri: string): Promise<string>;
  /** Every page of a kept result, following each page's `next`. */
  pages(uri: string): Promise<string[]>;
  /** Every result of an answer: its own, or the whole result it links as JSON when it shows part. */
  results<T>(answer: ToolAnswer<{ result: T[] }>): Promise<T[]>;
  /** The call of the recipes resource's computed recipe whose task begins with `task`. */
  recipe(task: string): Promise<Record<string, unknown> | undefined>;
}

/** The input of an activity export of `types` created in [startAt, endAt), run to completion (a CSV file). */
export function activityExport(startAt: string, endAt: string, types: readonly string[]) {
  return {
    method: "POST",
    endpoint: "/bulk/v1/activities/export/create.json",
    body: { format: "CSV", filter: { createdAt: { startAt, endAt }, activityTypeIds: [...types] } },
    run_to_completion: true,
  };
}

/** A workspace setting that lifts the step's own limit of Marketo's 100 calls in 20 s: for tests of many reads. */
export const NO_CALL_WINDOW: NodeJS.ProcessEnv = { MARKETO_CALLS_PER_WINDOW: "1000000" };

/** When the seeded world of the count tests begins (seededMarketo), so a file can build the same data set. */
export const SEEDED_AT = Date.UTC(2026, 11, 1, 12);

/**
 * The seed-42 world of `leadCount` leads as at SEEDED_AT, its clock then running, with no limit on Marketo's calls
 * nor the step's own window: the set-up the count and compute tests share. `env`, more workspace settings
 * (MARTECH_STEPS_RESULT_MAX_BYTES for a smaller kept result).
 */
export function seededMarketo(leadCount: number, env: NodeJS.ProcessEnv = {}): MarketoMcp {
  return marketoOverMcp(
    { leadCount, seed: 42, now: runningClock(SEEDED_AT), rateLimit: 1_000_000 },
    undefined,
    { ...NO_CALL_WINDOW, ...env },
  );
}

/**
 * Starts the sandbox and the session before the file's tests and closes both after them. `setUp` runs once
 * both are up (to write the records a file's tests read); `env`, the workspace's settings (e.g. Marketo's limits).
 */
export function marketoOverMcp(
  options: MarketoSandboxOptions,
  setUp?: (on: MarketoMcp) => Promise<void>,
  env: NodeJS.ProcessEnv = {},
): MarketoMcp {
  let fixture: MarketoFixture | undefined;
  let session: McpSession | undefined;
  const up = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("marketoOverMcp: used before its beforeAll ran");
    return value;
  };
  const on: MarketoMcp = {
    get fixture() {
      return up(fixture);
    },
    get session() {
      return up(session);
    },
    call: (args, onprogress) => callMarketo(on.session, args, onprogress),
    async ok<T>(args: Record<string, unknown>, onprogress?: Progress) {
      const answer = await on.call<T>(args, onprogress);
      expect(answer.result.isError, answer.text).toBeFalsy();
      return answer;
    },
    async whole(uri) {
      const { contents } = await on.session.client.readResource({ uri });
      expect(contents).toHaveLength(1);
      return (contents[0] as { text: string }).text;
    },
    async pages(uri) {
      const texts: string[] = [];
      let next: string | undefined = uri;
      while (next) {
        const content = (await on.session.client.readResource({ uri: next })).contents[0] as {
          text: string;
          _meta?: Record<string, { next?: string }>;
        };
        texts.push(content.text);
        next = content._meta?.["martech-steps/page"]?.next;
      }
      return texts;
    },
    async results<T>(answer: ToolAnswer<{ result: T[] }>) {
      // The records a count counted (keep_counted) are not its result: its count rows are.
      const link = answer.links.find(
        (l) => l.mimeType === "application/json" && !String(l.title ?? "").startsWith("Records counted"),
      );
      if (!link) return answer.data.result;
      return (await on.pages(link.uri)).flatMap((text) => JSON.parse(text) as T[]);
    },
    async recipe(task) {
      const { contents } = await on.session.client.readResource({ uri: "martech-steps://recipes/marketo" });
      const { computed } = JSON.parse((contents[0] as { text: string }).text) as {
        computed: { task: string; call: Record<string, unknown> }[];
      };
      return computed.find((r) => r.task.startsWith(task))?.call;
    },
  };
  beforeAll(async () => {
    fixture = await marketoFixture(options, env);
    session = await mcpSession(fixture.workspace);
    await setUp?.(on);
  });
  afterAll(async () => {
    await session?.close();
    await fixture?.close();
  });
  return on;
}
