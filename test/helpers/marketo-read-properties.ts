/**
 * The property the Marketo read tests of test/tools/marketo/properties/ share (issue 25, §3): a request
 * read to its end by cursor and from the kept results holds the records the sandbox holds, in its order,
 * each once; and the runs of a check, between them, took each path the property speaks for (an answer cut
 * inside a page, a continuation by Marketo's own token, a kept result whose read stopped at a cap), so that
 * a generator that stopped reaching them fails instead of passing on easy cases.
 */
import fc from "fast-check";
import { expect } from "vitest";
import {
  addStats,
  byId,
  type Continuation,
  noStats,
  once,
  type Query,
  type ReadInput,
  type ReadSandbox,
  type ReadStats,
  readByCursor,
  readKept,
} from "./marketo-reads.js";

/** Fixed, so that CI runs the same cases; a failure names the seed and the shrunk case. */
export const SEED = 2_025_025;

export interface Plan {
  request: ReadInput;
  /** MARTECH_STEPS_RESULT_MAX_BYTES of the workspace the kept reads use. */
  kept_bytes: number;
  continue_with: Continuation;
  /**
   * Whether the answers read by cursor come from a call that keeps whole results (MCP, the console) or
   * not (the CLI, a plugin host): keeping changes where the read stops and what its answer shows.
   */
  cursor_beside_kept: boolean;
}

/**
 * A plan around a GET: how it is read on, the kept size, paginate (mostly: paged reads are what caps,
 * cursors inside pages and kept results are made of) and its caps. `least` is the smallest max_items and
 * the smallest kept share of a read of hundreds of records, so that it takes a few dozen answers, not
 * hundreds (an answer per record would be as right, and slow). `maxPages` is the largest max_pages: an
 * activity page holds one day, so that an answer may read a few weeks.
 */
export function planOf(
  endpoint: string,
  query: fc.Arbitrary<Query>,
  { least = 1, maxPages = 6 }: { least?: number; maxPages?: number } = {},
): fc.Arbitrary<Plan> {
  return fc.record({
    request: fc.record({
      method: fc.constant("GET" as const),
      endpoint: fc.constant(endpoint),
      query_parameters: query,
      paginate: fc.oneof(
        { arbitrary: fc.constant(true), weight: 3 },
        { arbitrary: fc.constant(false), weight: 1 },
      ),
      max_pages: fc.integer({ min: 1, max: maxPages }),
      max_items: fc.integer({ min: least, max: 1_500 }),
    }),
    kept_bytes: fc.integer({ min: least === 1 ? 2_000 : 15_000, max: 400_000 }),
    continue_with: fc.constantFrom<Continuation>("cursor", "next_page_token"),
    cursor_beside_kept: fc.boolean(),
  });
}

/** Both reads of a plan equal the truth (the sandbox read whole), record for record; their stats added. */
export async function sameRecords(
  sandbox: ReadSandbox,
  plan: Plan,
  stats: ReadStats,
  key = byId,
): Promise<void> {
  const { request } = plan;
  const whole = await sandbox.truth(request.endpoint, request.query_parameters ?? {});
  stats.emptyPages += whole.emptyPagesBeforeMore;
  const truth = once(whole.records, "the sandbox", key);
  const byCursor = await readByCursor(sandbox.workspace(), request, {
    how: plan.continue_with,
    key,
    keptBytes: plan.cursor_beside_kept ? plan.kept_bytes : undefined,
  });
  expect(byCursor.records, "read by cursor").toEqual(truth);
  const kept = await readKept(sandbox.workspace(plan.kept_bytes), request, key);
  expect(kept.records, "read from the kept results").toEqual(truth);
  addStats(stats, byCursor.stats);
  addStats(stats, kept.stats);
}

/** Which paths a check's runs must have taken between them. */
export type Path = "withinPage" | "outputCapped" | "byToken" | "keptStopped" | "emptyPages";

const PATH_WORDS: Record<Path, string> = {
  withinPage: "answers cut inside a page",
  outputCapped: "answers cut by the output cap",
  byToken: "answers continued by next_page_token",
  keptStopped: "kept results that stopped at a cap",
  emptyPages: "empty pages with records after them",
};

/**
 * Runs `property` over `plans` with the fixed seed, after `examples` (plans written out that reach the paths
 * whatever the generated runs happen to reach); then each of `paths` was taken at least once.
 */
export async function checkReads<T>(
  plans: fc.Arbitrary<T>,
  property: (plan: T, stats: ReadStats) => Promise<void>,
  options: { numRuns: number; paths: readonly Path[]; examples?: readonly T[] },
): Promise<ReadStats> {
  const stats = noStats();
  await fc.assert(
    fc.asyncProperty(plans, (plan) => property(plan, stats)),
    { seed: SEED, numRuns: options.numRuns, examples: (options.examples ?? []).map((plan) => [plan]) },
  );
  for (const path of options.paths) expect(stats[path], PATH_WORDS[path]).toBeGreaterThan(0);
  return stats;
}
