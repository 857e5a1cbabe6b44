import { createHash, timingSafeEqual } from "node:crypto";

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

/**
 * The workspace of a presented API key (MARTECH_STEPS_API_KEYS), in constant time: every key is
 * compared, by hash, so neither the time taken nor the lengths compared tell a caller anything.
 */
export function workspaceOfApiKey(keys: ReadonlyMap<string, string>, presented: string): string | undefined {
  const presentedDigest = digest(presented);
  let found: string | undefined;
  for (const [key, workspace] of keys) {
    if (timingSafeEqual(digest(key), presentedDigest)) found = workspace;
  }
  return found;
}
