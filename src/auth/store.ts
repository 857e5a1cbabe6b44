import { type CredentialStore, FileCredentialStore, parseKey } from "./credential-store.js";
import { parseStoreKind, RedisCredentialStore } from "./redis-credential-store.js";

/** One store per process and backend, shared by every workspace object built from the same settings. */
const stores = new Map<string, CredentialStore>();

/** The credential store the environment selects (MARTECH_STEPS_STORE: file by default, or redis). */
export function createCredentialStore(env: NodeJS.ProcessEnv = process.env): CredentialStore {
  if (parseStoreKind(env) === "file") return new FileCredentialStore({ env });
  const url = env.REDIS_URL!.trim();
  const cacheKey = `redis|${url}|${env.MARTECH_STEPS_KEY}`;
  let store = stores.get(cacheKey);
  if (!store) {
    store = new RedisCredentialStore({ url, key: parseKey(env.MARTECH_STEPS_KEY!) });
    stores.set(cacheKey, store);
  }
  return store;
}
