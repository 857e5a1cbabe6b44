import fc from "fast-check";
import { afterAll, beforeAll } from "vitest";
import { MemoryCredentialStore } from "../../../src/auth/credential-store.js";
import { isMartechError } from "../../../src/errors.js";
import { MemoryState } from "../../../src/state/memory.js";
import { runToolStep } from "../../../src/tools/run.js";
import type { ToolContext } from "../../../src/tools/types.js";
import { Workspace } from "../../../src/workspace.js";
import { type Harness, startHarness } from "./harness.js";
import { lenient } from "./hostile-paths.js";
import type { Seen } from "./server.js";

/**
 * The endpoint guard of both API Call steps, driven through runToolStep with generated endpoints built
 * from what breaks URL handling (dot and slash look-alikes, overlong and %u escapes, double encoding,
 * control characters, lone surrogates, schemes, hosts, ;, ?, #, @...). Each case is judged by what the
 * recording loopback server actually received: the fake's own host, the step's API prefix, also once a
 * lenient gateway has decoded, normalised and resolved the path; never the identity or OAuth path; and
 * a refused endpoint sends nothing at all.
 */
/** 100,000 in all; a GA case costs about twice a Marketo one (its schema is built per call), so it gets fewer. */
export const MARKETO_CASES = 60_000;
export const GOOGLE_CASES = 40_000;
const SEED = 20_260_601;

export interface Judge {
  host: string;
  /** The step's API: every request must stay under one of these, as sent and as a gateway resolves it. */
  prefixes: readonly string[];
  /** The token endpoint on the same host: only the connector's own token requests may reach it. */
  identity: string;
}

/** Why a request the guard let through is wrong, or undefined when it is fine. */
function misdirected(seen: Seen, judge: Judge): string | undefined {
  if (seen.host !== judge.host) return `host ${seen.host}`;
  if (!judge.prefixes.some((p) => seen.path.startsWith(p))) return `path ${seen.path}`;
  const resolved = lenient(seen.path);
  if (!judge.prefixes.some((p) => resolved.startsWith(p))) return `path ${seen.path} resolves to ${resolved}`;
  if (!/^Bearer \S+$/.test(seen.headers.authorization ?? "")) return "a request without its bearer token";
  return undefined;
}

/**
 * For the describe block it is called in: a workspace on both fakes with limits out of the way (the
 * guard is under test, not the limiter), opened before its tests and closed after.
 */
export function useFuzzWorkspace(): () => { harness: Harness; context: ToolContext } {
  let opened: { harness: Harness; workspace: Workspace; context: ToolContext } | undefined;
  beforeAll(async () => {
    opened = await fuzzWorkspace();
  });
  afterAll(async () => {
    await opened?.workspace.close();
    await opened?.harness.close();
  });
  return () => {
    if (!opened) throw new Error("the fuzz workspace is not open");
    return opened;
  };
}

async function fuzzWorkspace(): Promise<{
  harness: Harness;
  workspace: Workspace;
  context: ToolContext;
}> {
  const harness = await startHarness({
    MARKETO_CALLS_PER_WINDOW: "100000000",
    MARKETO_DAILY_QUOTA: "100000000",
    MARTECH_STEPS_DEADLINE_MS: "10000",
  });
  const workspace = new Workspace({
    env: harness.env,
    store: new MemoryCredentialStore(),
    state: new MemoryState(),
  });
  await workspace.importAccount({ label: "main", refreshToken: harness.creds.google.refreshToken });
  return { harness, workspace, context: await workspace.toolContext({}) };
}

/**
 * Runs `numRuns` generated inputs through runToolStep and judges each by what `server` received since:
 * a refused endpoint (invalid_input) sent nothing; anything else went only where `judge` allows; no
 * error is untyped. Returns how many requests were sent and how many endpoints were refused.
 */
export async function fuzzStep(options: {
  tool: string;
  context: ToolContext;
  server: { seen: Seen[] };
  judge: Judge;
  input: fc.Arbitrary<{ endpoint: string } & Record<string, unknown>>;
  numRuns: number;
}): Promise<{ sent: number; refused: number }> {
  const { server, judge } = options;
  let sent = 0;
  let refused = 0;
  await fc.assert(
    fc.asyncProperty(options.input, async (args) => {
      const before = server.seen.length;
      let error: unknown;
      try {
        await runToolStep(options.tool, args, options.context);
      } catch (caught) {
        error = caught;
      }
      // Only token requests are kept (judged by the caller): flat memory over tens of thousands of cases.
      const arrived = server.seen.splice(before);
      server.seen.push(...arrived.filter((s) => s.path === judge.identity));
      const received = arrived.filter((s) => s.path !== judge.identity);
      if (error !== undefined && !isMartechError(error)) throw new Error(`untyped error: ${String(error)}`);
      if (isMartechError(error) && error.code === "invalid_input") {
        refused += 1;
        if (received.length > 0)
          throw new Error(`refused, yet sent ${received.map((r) => r.target).join(", ")}`);
        return;
      }
      sent += received.length;
      for (const seen of received) {
        const wrong = misdirected(seen, judge);
        if (wrong) throw new Error(`${JSON.stringify(args.endpoint)} was sent to ${wrong}`);
      }
    }),
    { numRuns: options.numRuns, seed: SEED, endOnFailure: true },
  );
  return { sent, refused };
}
