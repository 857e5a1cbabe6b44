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

/** A duration as a person reads it: seconds under a minute, minutes under two hours, then hours, then days. */
export function durationWords(ms: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (ms < 60_000) return unit(Math.max(1, Math.round(ms / 1000)), "second");
  if (ms < 2 * 3_600_000) return unit(Math.round(ms / 60_000), "minute");
  if (ms < 2 * 86_400_000) return unit(Math.round(ms / 3_600_000), "hour");
  return unit(Math.round(ms / 86_400_000), "day");
}

/**
 * A size as a person reads it, in decimal units: "512 bytes", "8 KB", "9.5 KB", "1.3 MB". A small
 * file said in MB read "(0.0 MB)"; one decimal is shown only below 10 of the unit.
 */
export function sizeWords(bytes: number): string {
  const unit = (n: number, word: string) => {
    const shown = n < 10 ? Number(n.toFixed(1)) : Math.round(n);
    return `${shown.toLocaleString("en-US")} ${word}`;
  };
  if (bytes < 1000) return `${bytes} byte${bytes === 1 ? "" : "s"}`;
  if (bytes < 999_500) return unit(bytes / 1000, "KB");
  return unit(bytes / 1_000_000, "MB");
}

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
  /** The JSON bytes of what is shown and of what was read (json-size.ts), said when the cap cut the answer. */
  sizes?: { shown: number; read: number };
}): string {
  // The cap measures JSON; the text form a model reads is smaller, so the sizes said are the JSON's.
  const sizes = o.sizes
    ? ` (as JSON: the ${count(o.shown)} shown are ${sizeWords(o.sizes.shown)}, the ${count(o.read)} read ${sizeWords(o.sizes.read)})`
    : "";
  const parts = [
    o.capped
      ? `Output capped at ${MAX_RESULT_BYTES / 1000} KB of JSON: ${count(o.shown)} of the ${count(o.read)} ${o.unit} read are shown${sizes}.`
      : `${count(o.read)} ${o.unit} read; more remain.`,
  ];
  if (o.resume) parts.push(`To continue with the first one not shown, call again with ${o.resume}.`);
  if (o.kept && o.capped)
    parts.push(`All ${count(o.read)} ${o.unit} read are in the full result linked with this answer.`);
  return parts.join(" ");
}

/**
 * Results shown whole are kept and linked too from this many (records, per's rows, count rows): a later call's
 * where (in result(…)) or join takes them by their link, which agents otherwise spent a call to get (trial s35,
 * N520: three listing calls of 60 to 80 rows each, printed again for a link).
 */
export const LINKED_FROM = 20;
