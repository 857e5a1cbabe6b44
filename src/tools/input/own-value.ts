/**
 * A record's own value for `key`, never one inherited from Object.prototype: a caller's key such as
 * "constructor" or "toString" must read as absent from a lookup table, not as a function. Zod-free (the
 * console's browser bundle words its form errors with words.ts, which looks names up with it).
 */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
