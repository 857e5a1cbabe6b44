import { describe, expect, it, vi } from "vitest";
import { tempDir } from "../helpers/temp.js";

/*
 * A cursor outlives the process that issued it (a server restarts, a replica answers the next page).
 * With the key file of the credential folder, a fresh process must check it with that key from its first
 * call: the Marketo step decodes its cursor before it reads any credential (and with credentials from the
 * environment it never reads the store at all), so a key loaded only by a store read came too late.
 */

const FINGERPRINT = { m: "GET", e: "/rest/v1/lists/1001/leads.json" };

/** The modules of a new process: nothing loaded, no key derived. */
async function freshProcess() {
  vi.resetModules();
  const store = await import("../../src/auth/credential-store.js");
  const cursor = await import("../../src/tools/cursor.js");
  return { ...store, ...cursor };
}

describe("a cursor in a fresh process", () => {
  it("is read with the key file's key before any credential is read", async () => {
    const home = await tempDir("cursor-fresh-");
    const first = await freshProcess();
    const store = new first.FileCredentialStore({ home, env: {} });
    await store.update("default", (s) => ({ ...s, googleClient: { clientId: "c", clientSecret: "s" } }));
    const cursor = first.encodeCursor(first.requestFingerprint(FINGERPRINT), { s: 7 });

    const second = await freshProcess();
    // What a server builds at start (the Workspace makes its store): no read yet.
    new second.FileCredentialStore({ home, env: {} });
    expect(second.decodeCursor(cursor, second.requestFingerprint(FINGERPRINT))).toEqual({ s: 7 });
  });

  it("issued before any read, it is signed with the key file's key too", async () => {
    const home = await tempDir("cursor-fresh-");
    const first = await freshProcess();
    await new first.FileCredentialStore({ home, env: {} }).update("default", (s) => s);

    // A process whose Marketo credentials come from the environment: it never reads the store.
    const second = await freshProcess();
    new second.FileCredentialStore({ home, env: {} });
    const cursor = second.encodeCursor(second.requestFingerprint(FINGERPRINT), { s: 9 });

    const third = await freshProcess();
    const later = new third.FileCredentialStore({ home, env: {} });
    await later.read("default");
    expect(third.decodeCursor(cursor, third.requestFingerprint(FINGERPRINT))).toEqual({ s: 9 });
  });
});
