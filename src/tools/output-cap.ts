import { itemBytes } from "../json-size.js";

/**
 * MCP clients cap a tool result at about 25,000 tokens (≈100 KB of JSON), and the same data goes out
 * twice (structured content and its text form). Results are therefore capped by serialized size,
 * not by row count: 300 wide lead records can be larger than 3,000 narrow ones.
 */
export const MAX_RESULT_BYTES = 45_000;

export function jsonSize(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");
}

/**
 * Keeps the longest prefix of `items` within `maxBytes`, measured exactly as the connectors' pagination
 * caps measure (json-size.ts), so a page the connector kept is never cut here.
 */
export function capItems<T>(
  items: readonly T[],
  maxBytes: number = MAX_RESULT_BYTES,
): { items: T[]; dropped: number } {
  let size = 0;
  const kept: T[] = [];
  for (const item of items) {
    const bytes = itemBytes(item);
    if (size + bytes > maxBytes) break;
    size += bytes;
    kept.push(item);
  }
  return { items: kept, dropped: items.length - kept.length };
}
