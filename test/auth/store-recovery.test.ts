import { createCipheriv, randomBytes } from "node:crypto";
import { chmod, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  FileCredentialStore,
  StoreUnreadableError,
  type WorkspaceSecrets,
} from "../../src/auth/credential-store.js";
import { openSecrets, sealSecrets } from "../../src/auth/sealed.js";
import { tempDir } from "../helpers/temp.js";

const CANARY = "canary-store-recovery-5e21";
const KEY = randomBytes(32);
const OTHER_KEY = randomBytes(32);

const SECRETS: WorkspaceSecrets = {
  marketo: { clientId: "id", clientSecret: CANARY, restEndpoint: "https://1-a.mktorest.com/rest" },
  googleAccounts: {
    ana: { label: "ana", scopes: [], addedAt: "2026-01-01T00:00:00Z", refreshToken: `1//${CANARY}` },
  },
};

/** A document as written before `kid` and `sum` existed (martech-steps/v1 with four fields). */
function legacySeal(key: Buffer, secrets: WorkspaceSecrets, workspace: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(`martech-steps/v1:${workspace}`));
  const data = Buffer.concat([cipher.update(JSON.stringify(secrets), "utf8"), cipher.final()]);
  return JSON.stringify({
    format: "martech-steps/v1",
    iv: iv.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
    data: data.toString("base64"),
  });
}

async function seeded(options: { env?: NodeJS.ProcessEnv } = {}) {
  const home = await tempDir("martech-recovery-");
  const store = new FileCredentialStore({ home, env: options.env ?? {} });
  await store.update("default", () => SECRETS);
  const file = join(home, "workspaces", "default.json");
  return { home, store, file };
}

async function failure(promise: Promise<unknown>): Promise<StoreUnreadableError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreUnreadableError);
  expect(String(error)).not.toContain(CANARY);
  return error as StoreUnreadableError;
}

describe("telling a damaged store from one written with another key", () => {
  it("classifies every single-bit flip of a sealed document as damaged, never as another key", () => {
    const sealed = Buffer.from(sealSecrets(KEY, SECRETS, "default"));
    const verdicts: Record<string, number> = {};
    for (let bit = 0; bit < sealed.length * 8; bit++) {
      const flipped = Buffer.from(sealed);
      flipped[bit >> 3] = (flipped[bit >> 3] as number) ^ (1 << (bit & 7));
      const opened = openSecrets(KEY, flipped.toString("utf8"), "default");
      // A flip in the name of the "sum" field leaves an authenticated document without a checksum:
      // GCM still proves the content intact, so it opens, unchanged.
      if (opened.ok) expect(opened.secrets).toEqual(SECRETS);
      const verdict = opened.ok ? "opened intact" : opened.reason;
      verdicts[verdict] = (verdicts[verdict] ?? 0) + 1;
    }
    expect(verdicts.wrong_key).toBeUndefined();
    expect(verdicts.damaged).toBeGreaterThanOrEqual(sealed.length * 8 - 3 * 8);
  });

  it("classifies every truncation as damaged", () => {
    const sealed = sealSecrets(KEY, SECRETS, "default");
    for (let length = 0; length < sealed.length; length++) {
      const opened = openSecrets(KEY, sealed.slice(0, length), "default");
      expect(opened.ok ? "opened" : opened.reason, `cut at ${length}`).toBe("damaged");
    }
  });

  it("classifies an intact document under another key as written with another key", () => {
    const opened = openSecrets(OTHER_KEY, sealSecrets(KEY, SECRETS, "default"), "default");
    expect(opened).toMatchObject({ ok: false, reason: "wrong_key" });
  });

  it("still opens documents written before the key id and checksum; a failed tag there is another key", () => {
    const legacy = legacySeal(KEY, SECRETS, "default");
    expect(openSecrets(KEY, legacy, "default")).toEqual({ ok: true, secrets: SECRETS });
    expect(openSecrets(OTHER_KEY, legacy, "default")).toMatchObject({ ok: false, reason: "wrong_key" });
  });
});

describe("FileCredentialStore with a damaged file", () => {
  it("reports it on read and update, and leaves it exactly as it is", async () => {
    const { store, file, home } = await seeded();
    const original = await readFile(file, "utf8");
    await writeFile(file, original.slice(0, 90));
    const read = await failure(store.read("default"));
    expect(read.reason).toBe("damaged");
    expect(read.message).toMatch(
      /is damaged \(it is not valid JSON \(truncated\?\)\)\. Start over with martech-steps marketo configure --force/,
    );
    const bytes = Buffer.from(original);
    bytes[bytes.length - 40] = (bytes[bytes.length - 40] as number) ^ 1;
    await writeFile(file, bytes);
    const update = await failure(store.update("default", (s) => ({ ...s, marketo: undefined })));
    expect(update.message).toMatch(/is damaged \(its checksum does not match/);
    expect(await readFile(file)).toEqual(bytes);
    expect(await readdir(join(home, "workspaces"))).toEqual(["default.json"]);
  });

  it("starts over on updateOrStartOver, keeping the damaged file aside (0600) and saying where", async () => {
    const { store, file } = await seeded();
    await writeFile(file, "{}");
    await chmod(file, 0o644);
    const { secrets, lost } = await store.updateOrStartOver("default", (s) => ({ ...s, marketo: undefined }));
    expect(secrets).toEqual({ googleAccounts: {}, marketo: undefined });
    expect(lost).toMatchObject({
      reason: "damaged",
      why: "it is not a martech-steps store document",
      keptAt: expect.stringMatching(/default\.json\.corrupt-\d{4}-\d\d-\d\dT/),
    });
    expect(await readFile(lost!.keptAt, "utf8")).toBe("{}");
    expect((await stat(lost!.keptAt)).mode & 0o777).toBe(0o600);
    expect(await store.read("default")).toEqual({ googleAccounts: {} });
  });
});

describe("FileCredentialStore with another key", () => {
  it("names MARTECH_STEPS_KEY, leaves the file where it is, and refuses updates", async () => {
    const { home, file } = await seeded({ env: { MARTECH_STEPS_KEY: KEY.toString("hex") } });
    const other = new FileCredentialStore({ home, env: { MARTECH_STEPS_KEY: OTHER_KEY.toString("base64") } });
    const before = await readFile(file, "utf8");
    const read = await failure(other.read("default"));
    expect(read.reason).toBe("wrong_key");
    expect(read.message).toMatch(
      /cannot be opened with the key in use \(MARTECH_STEPS_KEY\): it was written with another key/,
    );
    expect(read.message).toMatch(/marketo configure --force/);
    await failure(other.update("default", (s) => s));
    expect(await readFile(file, "utf8")).toBe(before);
    expect(await readdir(join(home, "workspaces"))).toEqual(["default.json"]);
  });

  it("names the key file when that is the key in use, and never makes a new key to read with", async () => {
    const { home } = await seeded();
    const keyFile = join(home, "key");
    await writeFile(keyFile, OTHER_KEY.toString("base64"), { mode: 0o600 });
    const error = await failure(new FileCredentialStore({ home, env: {} }).read("default"));
    expect(error.message).toContain(`(the key file ${keyFile})`);
    await rm(keyFile);
    const missing = await failure(new FileCredentialStore({ home, env: {} }).read("default"));
    expect(missing.message).toMatch(/the key file it was written with is missing/);
    expect(await readdir(home)).not.toContain("key");
  });

  it("starts over only when asked, keeping the old document under .other-key-", async () => {
    const { home, file } = await seeded({ env: { MARTECH_STEPS_KEY: KEY.toString("hex") } });
    const before = await readFile(file, "utf8");
    const other = new FileCredentialStore({ home, env: { MARTECH_STEPS_KEY: OTHER_KEY.toString("hex") } });
    const { lost } = await other.updateOrStartOver("default", (s) => ({
      ...s,
      marketo: { clientId: "new", clientSecret: "s", restEndpoint: "https://2-b.mktorest.com/rest" },
    }));
    expect(lost).toMatchObject({ reason: "wrong_key", keptAt: expect.stringMatching(/\.other-key-/) });
    expect(await readFile(lost!.keptAt, "utf8")).toBe(before);
    expect((await other.read("default")).marketo?.clientId).toBe("new");
    // The kept document still opens with its own key once moved back.
    const original = new FileCredentialStore({ home, env: { MARTECH_STEPS_KEY: KEY.toString("hex") } });
    await writeFile(file, before);
    expect((await original.read("default")).marketo?.clientSecret).toBe(CANARY);
  });
});
