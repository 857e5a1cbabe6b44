/** Sizes of one bench run; `--quick` and `--smoke` shrink them (the smoke test runs one repeat). */
export interface BenchConfig {
  /** Interleaved repeats per row (at least 5 for a figure docs/benchmarks.md records). */
  repeats: number;
  /** Sequential calls per repeat of the per-call rows. */
  calls: number;
  warmup: number;
  /** Concurrent Run Reports per repeat. */
  reports: number;
  /** Calls of the steady-window burst on a 20 s window; 0 skips that row. */
  burst20s: number;
  /** Calls of the burst on the shrunk window. */
  burstShrunk: number;
  shrunkWindowMs: number;
  /** node-marketo-rest's burst on the shrunk window (its 606 waits are 20 s). */
  peerBurst: number;
  /** Leads streamed through pages(). */
  leads: number;
}

export const FULL: BenchConfig = {
  repeats: 5,
  calls: 400,
  warmup: 50,
  reports: 50,
  burst20s: 200,
  burstShrunk: 500,
  shrunkWindowMs: 2_000,
  peerBurst: 1_000,
  leads: 1_000_000,
};

export const QUICK: BenchConfig = {
  ...FULL,
  calls: 150,
  warmup: 20,
  burst20s: 0,
  burstShrunk: 300,
  peerBurst: 300,
  leads: 100_000,
};

export const SMOKE: BenchConfig = {
  repeats: 1,
  calls: 5,
  warmup: 1,
  reports: 5,
  burst20s: 0,
  burstShrunk: 250,
  shrunkWindowMs: 300,
  peerBurst: 0,
  leads: 900,
};
