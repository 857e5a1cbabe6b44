import { randomBytes } from "node:crypto";

import { describe, expect, it } from "vitest";
import { FileCredentialStore } from "../../src/auth/credential-store.js";
import { signCursorsWithStoreKey } from "../../src/auth/cursor-key.js";
import { ValidationError } from "../../src/errors.js";
import { decodeCursor, encodeCursor, requestFingerprint } from "../../src/tools/cursor.js";
import { skipOf } from "../../src/tools/ga/api-call-paging.js";
import { runToolStep } from "../../src/tools/run.js";
import { contextReturning } from "../helpers/marketo-double.js";
import { tempDir } from "../helpers/temp.js";

/*
 * Cursors are signed with a key derived from the store key: a forged position for the same request, or
 * a cursor another deployment issued, is refused before anything is sent, saying to start again.
 */

const FINGERPRINT = requestFingerprint({ m: "GET", e: "/rest/v1/lists/1001/leads.json" });
const REFUSED = /not issued by this deployment, or it was changed since: start again without cursor/;

function refusal(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error("the cursor was accepted");
}

/** The same cursor with its position changed and its signature kept. */
function forged(cursor: string, change: (position: Record<string, unknown>) => void): string {
  const [prefix, body, signature] = cursor.split(".");
  const decoded = JSON.parse(Buffer.from(body as string, "base64url").toString("utf8"));
  change(decoded.p);
  return `${prefix}.${Buffer.from(JSON.stringify(decoded)).toString("base64url")}.${signature}`;
}

describe("signed cursors", () => {
  it("a cursor this deployment issued is read back, and stays short", () => {
    signCursorsWithStoreKey(randomBytes(32));
    const cursor = encodeCursor(FINGERPRINT, {
      t: "GIYDAOBNGEYS2MBWKQYDAORQGA5DAMBOGAYDAKZQGAYDALBQ",
      s: 120,
    });
    expect(decodeCursor(cursor, FINGERPRINT)).toEqual({
      t: "GIYDAOBNGEYS2MBWKQYDAORQGA5DAMBOGAYDAKZQGAYDALBQ",
      s: 120,
    });
    expect(cursor.length).toBeLessThan(200);
  });

  it("a forged position for the same request is refused", () => {
    signCursorsWithStoreKey(randomBytes(32));
    const cursor = encodeCursor(FINGERPRINT, { k: "properties", s: 50 });
    for (const fake of [
      forged(cursor, (p) => {
        p.s = 5_000;
      }),
      forged(cursor, (p) => {
        p.k = "accounts";
      }),
      `${cursor.slice(0, -1)}${cursor.endsWith("A") ? "B" : "A"}`,
      cursor.slice(0, cursor.lastIndexOf(".")),
      `${cursor}.extra`,
    ]) {
      const error = refusal(() => decodeCursor(fake, FINGERPRINT));
      expect(error.message).toMatch(REFUSED);
      expect(error.hint).toMatch(/leave cursor out to start at the beginning/);
    }
  });

  it("another deployment's cursor is refused; a replica with the same store key reads it", async () => {
    const mine = randomBytes(32);
    new FileCredentialStore({ home: await tempDir("cursor-a-"), key: mine });
    const cursor = encodeCursor(FINGERPRINT, { s: 10 });
    new FileCredentialStore({ home: await tempDir("cursor-b-"), key: randomBytes(32) });
    expect(refusal(() => decodeCursor(cursor, FINGERPRINT)).message).toMatch(REFUSED);
    new FileCredentialStore({ home: await tempDir("cursor-c-"), key: Buffer.from(mine) });
    expect(decodeCursor(cursor, FINGERPRINT)).toEqual({ s: 10 });
  });

  it("with a key file, the cursor key is the key file's: it survives the process, not another folder", async () => {
    const home = await tempDir("cursor-file-");
    const first = new FileCredentialStore({ home, env: {} });
    await first.update("default", (s) => ({ ...s, googleClient: { clientId: "c", clientSecret: "s" } }));
    const cursor = encodeCursor(FINGERPRINT, { s: 3 });
    const elsewhere = new FileCredentialStore({
      home: await tempDir("cursor-other-"),
      env: {},
    });
    await elsewhere.update("default", (s) => s);
    expect(refusal(() => decodeCursor(cursor, FINGERPRINT)).message).toMatch(REFUSED);
    // A later process on the first folder: reading any workspace (one with no document too) loads the key.
    await new FileCredentialStore({ home, env: {} }).read("no-document-here");
    expect(decodeCursor(cursor, FINGERPRINT)).toEqual({ s: 3 });
  });

  it("the Google API Call step refuses a forged cursor before sending", () => {
    signCursorsWithStoreKey(randomBytes(32));
    const fields = { method: "GET", endpoint: "v1beta/accountSummaries", api: "admin" } as never;
    const fingerprint = requestFingerprint({ m: "GET", e: "v1beta/accountSummaries", a: "admin" });
    const cursor = encodeCursor(fingerprint, { k: "accountSummaries", s: 5 });
    expect(skipOf({ ...(fields as object), cursor } as never)).toEqual({ list: "accountSummaries", skip: 5 });
    const fake = forged(cursor, (p) => {
      p.s = 0;
    });
    expect(refusal(() => skipOf({ ...(fields as object), cursor: fake } as never)).message).toMatch(REFUSED);
  });

  it("the Marketo API Call step refuses a forged cursor, and sends nothing", async () => {
    signCursorsWithStoreKey(randomBytes(32));
    const { context, requests } = contextReturning({
      result: [{ id: 1, note: "x".repeat(400) }],
      positions: [{ index: 0, at: {} }],
      next: { nextPageToken: "P2" },
    });
    const input = {
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      query_parameters: { fields: "id" },
    };
    const { data } = await runToolStep("marketo_api_call", input, context);
    const cursor = (data as { next_cursor: string }).next_cursor;
    expect(cursor).toMatch(/^c3\./);
    const fake = forged(cursor, (p) => {
      p.t = "P9";
    });
    requests.length = 0;
    const error = await runToolStep("marketo_api_call", { ...input, cursor: fake }, context).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(REFUSED);
    expect(requests).toHaveLength(0);
    await runToolStep("marketo_api_call", { ...input, cursor }, context);
    expect(requests).toHaveLength(1);
  });
});

describe("signed cursors: the signature as issued", () => {
  it("another text that decodes to the same signature is refused", () => {
    signCursorsWithStoreKey(randomBytes(32));
    const cursor = encodeCursor(FINGERPRINT, { s: 40 });
    const cut = cursor.lastIndexOf(".") + 1;
    const signature = cursor.slice(cut);
    const prefix = cursor.slice(0, cut);
    const last = signature.at(-1) as string;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    // The 22nd character carries 2 bits of the MAC and 4 spare bits: 15 other characters decode alike.
    const spare = alphabet.indexOf(last) & 0b110000;
    const sameBytes = [...alphabet].filter((c, i) => (i & 0b110000) === spare && c !== last);
    expect(sameBytes).toHaveLength(15);
    const variants = [
      ...sameBytes.map((c) => `${prefix}${signature.slice(0, -1)}${c}`),
      `${prefix}${signature}=`,
      `${prefix}${signature}==`,
      `${prefix}${signature.slice(0, 10)} ${signature.slice(10)}`,
      `${prefix}${signature.slice(0, 10)}!${signature.slice(10)}`,
      `${prefix}${Buffer.from(signature, "base64url").toString("base64")}`,
    ];
    for (const variant of variants) {
      expect(Buffer.from(variant.slice(cut), "base64url").equals(Buffer.from(signature, "base64url"))).toBe(
        true,
      );
      expect(refusal(() => decodeCursor(variant, FINGERPRINT)).message).toMatch(REFUSED);
    }
    expect(decodeCursor(cursor, FINGERPRINT)).toEqual({ s: 40 });
  });
});
