/**
 * Seeded, dependency-free randomness so the emulator is deterministic: the same (seed, property, day)
 * always yields the same data. FNV-1a for hashing keys, mulberry32 for the stream.
 */

export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number;
  /** Index drawn with the given non-negative weights. */
  weighted(weights: readonly number[]): number;
  chance(probability: number): boolean;
}

export function createRng(...keys: (string | number)[]): Rng {
  let state = hashString(keys.join("|")) || 0x9e3779b9;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    weighted: (weights) => {
      const total = weights.reduce((sum, w) => sum + w, 0);
      let pick = next() * total;
      for (let i = 0; i < weights.length; i++) {
        pick -= weights[i] ?? 0;
        if (pick < 0) return i;
      }
      return weights.length - 1;
    },
    chance: (probability) => next() < probability,
  };
}
