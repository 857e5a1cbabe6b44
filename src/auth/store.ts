import { redisTarget, redisTimeoutMs } from "../state/ioredis.js";
import {
  type CredentialStore,
  checkNoStoppedSandbox,
  FileCredentialStore,
  parseKey,
} from "./credential-store.js";
import { parseStoreKind, RedisCredentialStore } from "./redis-credential-store.js";

/** One store per process and backend, shared by every workspace object built from the same settings. */
const stores = new Map<string, CredentialStore>();

/** The credential store the environment selects (MARTECH_STEPS_STORE: file by default, or redis). */
export function createCredentialStore(env: NodeJS.ProcessEnv = process.env): CredentialStore {
  if (parseStoreKind(env) === "file") return new FileCredentialStore({ env });
  const target = redisTarget(env)!;
  const timeoutMs = redisTimeoutMs(env);
  const cacheKey = `redis|${JSON.stringify(target)}|${env.MARTECH_STEPS_KEY}|${timeoutMs}`;
  let store = stores.get(cacheKey);
  if (!store) {
    store = new RedisCredentialStore({
      target,
      key: parseKey(env.MARTECH_STEPS_KEY!),
      keySource: "MARTECH_STEPS_KEY",
      timeoutMs,
    });
    stores.set(cacheKey, store);
  }
  return store;
}

/**
 * Validates the store settings before a command or a server starts: the exports of a stopped
 * sandbox, MARTECH_STEPS_STORE, the key (MARTECH_STEPS_KEY, or the key file and its permissions)
 * and the folder's permissions. A bad
 * setting is a ConfigurationError here, instead of a failure at the first request.
 */
export async function checkCredentialStore(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  checkNoStoppedSandbox(env);
  await createCredentialStore(env).check?.();
}
