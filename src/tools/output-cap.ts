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
 * caps measure (json-size.ts). With `atLeastOne`, an item larger than the cap on its own is still
 * shown: an answer that resumes where it started would never get anywhere.
 */
export function capItems<T>(
  items: readonly T[],
  maxBytes: number = MAX_RESULT_BYTES,
  atLeastOne = false,
): { items: T[]; dropped: number } {
  let size = 0;
  const kept: T[] = [];
  for (const item of items) {
    const bytes = itemBytes(item);
    if (size + bytes > maxBytes && !(atLeastOne && kept.length === 0)) break;
    size += bytes;
    kept.push(item);
  }
  return { items: kept, dropped: items.length - kept.length };
}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * The one warning of an answer that shows less than there is: how much is shown, exactly what to pass
 * back to continue with the first item not shown, and where the whole read is when it is kept.
 */
export function moreWarning(o: {
  unit: string;
  shown: number;
  read: number;
  /** Whether the output cap cut what was read (rather than the read stopping at a cap of its own). */
  capped: boolean;
  /** What to pass back, e.g. "cursor = next_cursor (same method, endpoint and query_parameters)". */
  resume: string | undefined;
  /** Whether the whole read is offered beside the answer (a resource link). */
  kept: boolean;
}): string {
  const parts = [
    o.capped
      ? `Output capped at ${MAX_RESULT_BYTES / 1000} KB: ${count(o.shown)} of the ${count(o.read)} ${o.unit} read are shown.`
      : `${count(o.read)} ${o.unit} read; more remain.`,
  ];
  if (o.resume) parts.push(`To continue with the first one not shown, call again with ${o.resume}.`);
  if (o.kept && o.capped)
    parts.push(`All ${count(o.read)} ${o.unit} read are in the full result linked with this answer.`);
  return parts.join(" ");
}
