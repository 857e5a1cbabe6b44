/**
 * Measures the heap the embedded authorization server's store takes at its caps (src/web/oauth/store-limits.ts):
 * every kind filled to its cap with entries at their largest, in two shapes (one long string; many short
 * fields, which cost V8 more per byte), the heap measured after a full collection. Prints the JSON bound
 * and the heap of each shape; docs/security.md states the result.
 *
 *   node --expose-gc --import tsx scripts/oauth-store-bound.ts
 */
import { MemoryStore } from "../src/web/oauth/memory-store.js";
import { KIND_LIMITS, storeBoundBytes } from "../src/web/oauth/store-limits.js";

type Shape = (bytes: number, n: number) => Record<string, unknown>;

/** One long string field, the entry `bytes` of JSON. */
const oneString: Shape = (bytes, n) => ({ n, text: "x".repeat(bytes - 30) });
/** Fields of 64 characters, as many as fit: an authorization request's many parameters. */
const manyFields: Shape = (bytes, n) => {
  const fields: Record<string, unknown> = { n };
  let size = JSON.stringify(fields).length;
  for (let i = 0; ; i++) {
    const key = `k${i}`;
    const value = `${n}-${"v".repeat(60)}${i}`;
    const more = key.length + value.length + 6; // "key":"value",
    if (size + more > bytes) return fields;
    fields[key] = value;
    size += more;
  }
};

function heapMiB(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

function fill(shape: Shape): number {
  const before = heapMiB();
  const store = new MemoryStore();
  for (const [kind, { max, maxBytes }] of Object.entries(KIND_LIMITS)) {
    for (let n = 0; n < max; n++) {
      const payload = shape(maxBytes - 40, n);
      if (kind === "Grant") payload.clientId = `client-${n}`;
      store.set(kind, `${kind}-${n}`, payload, kind === "Client" ? undefined : 3_600);
    }
  }
  const after = heapMiB();
  if (store.size("Client") !== KIND_LIMITS.Client?.max) throw new Error("the store did not fill");
  return after - before;
}

if (!(globalThis as { gc?: unknown }).gc) throw new Error("run with node --expose-gc --import tsx");
const bound = storeBoundBytes() / 1024 / 1024;
console.log(`JSON bound at every cap: ${bound.toFixed(1)} MiB`);
console.log(`heap, one long string per entry: ${fill(oneString).toFixed(1)} MiB`);
console.log(`heap, many 64-character fields per entry: ${fill(manyFields).toFixed(1)} MiB`);
