import { createServer } from "node:net";
import { expect } from "vitest";
import { isMartechError, type MartechError } from "../../../src/errors.js";
import type { Handler, Reply, Seen } from "./server.js";

/** The ways a service or the network can misbehave, each as an answer of the fake. */
export const FAULTS: Record<string, () => Reply> = {
  "reset before answering": () => ({ fault: "reset" }),
  "reset mid-body": () => ({ fault: "reset-body" }),
  "hang before headers": () => ({ fault: "hang" }),
  "hang mid-body": () => ({ fault: "hang-body" }),
  "5xx HTML": () => ({
    status: 503,
    headers: { "content-type": "text/html" },
    text: "<html>Service Unavailable</html>",
  }),
  "malformed JSON": () => ({
    status: 200,
    headers: { "content-type": "application/json" },
    text: '{"success":tru',
  }),
  "empty body": () => ({ status: 200, headers: { "content-type": "application/json" }, text: "" }),
  "empty JSON": () => ({ status: 200, json: {} }),
};

/** Answers `reply` to requests that `match`, and lets the others through. */
export function when(match: (seen: Seen) => boolean, reply: (seen: Seen) => Reply): Handler {
  return (seen) => (match(seen) ? reply(seen) : undefined);
}

/** A loopback port nothing listens on: connections to it are refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Ending {
  ms: number;
  result?: unknown;
  error?: MartechError;
}

/** Runs a call and says how it ended; an untyped error fails the suite at once. */
export async function ending(run: () => Promise<unknown>): Promise<Ending> {
  const started = performance.now();
  try {
    const result = await run();
    return { ms: performance.now() - started, result };
  } catch (error) {
    if (!isMartechError(error)) throw new Error(`untyped error: ${String(error)}`, { cause: error });
    return { ms: performance.now() - started, error };
  }
}

/** Runs tasks with at most `limit` at once (fault cases mostly wait, so several share the two cores). */
export async function inParallel<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < tasks.length; i = next++) results[i] = await (tasks[i] as () => Promise<T>)();
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

/** How late past the deadline an answer may come back (timers and a loaded event loop). */
export const SLACK_MS = 600;

/**
 * Runs every case (six at a time) and checks that each ended within the deadline, through the connector
 * rather than runToolStep's backstop (whose message starts with the step's title); `check` adds the
 * case's own expectations. Returns the summary line the README's figures come from.
 */
export async function runCases<
  C extends { op: string; name: string },
  R extends { ending: Ending },
>(options: {
  service: string;
  stepTitle: string;
  deadlineMs: number;
  cases: readonly C[];
  run: (c: C) => Promise<R>;
  check: (c: C, outcome: R, label: string) => void;
}): Promise<string> {
  const outcomes = await inParallel(
    options.cases.map((c) => () => options.run(c)),
    6,
  );
  const kinds = new Map<string, number>();
  outcomes.forEach((outcome, i) => {
    const c = options.cases[i] as C;
    const label = `${c.op} / ${c.name}`;
    const e = outcome.ending;
    expect(e.ms, label).toBeLessThan(options.deadlineMs + SLACK_MS);
    expect(e.error?.message ?? "", label).not.toMatch(new RegExp(`^${options.stepTitle} did not finish`));
    options.check(c, outcome, label);
    const kind = e.error ? e.error.code : "result";
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  });
  return `${options.service} faults: ${options.cases.length} cases ended within ${options.deadlineMs} ms (+${SLACK_MS} ms slack): ${JSON.stringify(Object.fromEntries(kinds))}`;
}
