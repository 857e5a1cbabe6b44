/**
 * One measure of output size, shared by the connectors' pagination caps and the tool steps' output
 * caps so that they agree exactly: the UTF-8 bytes of each item as JSON, plus one separator each.
 */
export function jsonBytes(items: readonly unknown[]): number {
  let bytes = 0;
  for (const item of items) bytes += itemBytes(item);
  return bytes;
}

export function itemBytes(item: unknown): number {
  return Buffer.byteLength(JSON.stringify(item) ?? "null") + 1;
}
