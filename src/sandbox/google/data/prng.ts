/**
 * Seeded randomness for the Data API emulator: the same (seed, property, day) always yields the same
 * data. FNV-1a hashes the keys into a seed for the shared mulberry32 stream.
 */
import { mulberry32, type Prng } from "../../prng.js";

export type Rng = Prng;

export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function createRng(...keys: (string | number)[]): Rng {
  return mulberry32(hashString(keys.join("|")) || 0x9e3779b9);
}
