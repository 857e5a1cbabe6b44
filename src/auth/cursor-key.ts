import { hkdfSync, randomBytes } from "node:crypto";

/*
 * The key that signs the cursors this deployment hands out (src/tools/cursor.ts). It is derived from the
 * store key (MARTECH_STEPS_KEY, or the key file made at the first save), so it is kept with it: replicas
 * sharing a store key accept each other's cursors, and another deployment's are refused. HKDF keeps the
 * store key itself out of any other use (https://www.rfc-editor.org/rfc/rfc5869).
 */

const INFO = "martech-steps cursor signing v1";

/** Until a store with a key is opened (the in-memory store of tests and the sandbox): this process only. */
const processKey = randomBytes(32);

let derived: { from: Buffer; key: Buffer } | undefined;

/**
 * Where a store with a key file finds it before any credential is read: a fresh process (a restart, a
 * replica) checks a cursor before the step reads credentials, or never reads them (credentials from the
 * environment), and signing with the process key then refused every cursor issued before.
 */
let loader: (() => Buffer | undefined) | undefined;

/** Finds the store key with `load` when a cursor is made or checked and none was given yet. */
export function signCursorsWithKeyFrom(load: () => Buffer | undefined): void {
  loader = load;
  derived = undefined;
}

/** Signs cursors with the key derived from this store key from now on (the stores call it when they have one). */
export function signCursorsWithStoreKey(storeKey: Buffer): void {
  if (derived?.from.equals(storeKey)) return;
  const key = Buffer.from(hkdfSync("sha256", storeKey, Buffer.alloc(0), INFO, 32));
  derived = { from: Buffer.from(storeKey), key };
}

/** The key cursors are signed and checked with. */
export function cursorKey(): Buffer {
  if (!derived && loader) {
    const key = loader();
    if (key) signCursorsWithStoreKey(key);
  }
  return derived?.key ?? processKey;
}
