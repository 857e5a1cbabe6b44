/**
 * A small seeded PRNG shared by the emulators, so their data sets are identical for a given seed on
 * every run and platform (tests predict lead emails, list sizes, activity mixes and report rows).
 */

export interface Prng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** Index drawn with the given non-negative weights. */
  weighted(weights: readonly number[]): number;
  chance(probability: number): boolean;
  /** A new array with the items in a seeded random order (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[];
}

/** mulberry32: 32-bit state, good enough statistical quality for fixtures, and tiny. */
export function mulberry32(seed: number): Prng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => {
      const item = items[int(0, items.length - 1)];
      if (item === undefined) throw new RangeError("pick() needs a non-empty array");
      return item;
    },
    weighted: (weights: readonly number[]): number => {
      const total = weights.reduce((sum, w) => sum + w, 0);
      let pick = next() * total;
      for (let i = 0; i < weights.length; i++) {
        pick -= weights[i] ?? 0;
        if (pick < 0) return i;
      }
      return weights.length - 1;
    },
    chance: (probability: number): boolean => next() < probability,
    shuffle: <T>(items: readonly T[]): T[] => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(0, i);
        const tmp = out[i] as T;
        out[i] = out[j] as T;
        out[j] = tmp;
      }
      return out;
    },
  };
}
