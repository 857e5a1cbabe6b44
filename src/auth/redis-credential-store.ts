import { ConfigurationError, NetworkError } from "../errors.js";
import {
  bounded,
  DEFAULT_REDIS_TIMEOUT_MS,
  newRedisClient,
  type RedisClient,
  type RedisTarget,
  redisError,
} from "../state/ioredis.js";
import { hashTag } from "../state/keys.js";
import { signCursorsWithStoreKey } from "./cursor-key.js";
import { type Opened, openSecrets, StoreUnreadableError, sealSecrets } from "./sealed.js";
import {
  type CredentialStore,
  checkWorkspaceName,
  emptySecrets,
  KeyedLock,
  type LostDocument,
  type StartedOver,
  type WorkspaceSecrets,
} from "./store-core.js";

type Change = (current: WorkspaceSecrets) => WorkspaceSecrets;

/**
 * Compare-and-set: writes the new sealed document only if the stored one is still the one the
 * change was computed from, so two replicas updating at once never lose an update (the loser
 * re-reads and re-applies its change). With a second key, the replaced document is kept there
 * (an unreadable document set aside when starting over).
 */
const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[1])
if (current == false and ARGV[1] == '') or current == ARGV[1] then
  if KEYS[2] and current then redis.call('SET', KEYS[2], current) end
  redis.call('SET', KEYS[1], ARGV[2])
  return 1
end
return 0`;

const MAX_ATTEMPTS = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface RedisCredentialStoreOptions {
  /** redis://[:password@]host:port[/db]; ignored when `client` is given. */
  url?: string;
  /** One Redis or a cluster's seed nodes (REDIS_CLUSTER_NODES); ignored when `client` is given. */
  target?: RedisTarget;
  client?: RedisClient;
  /** The 32-byte store key; every replica must have the same one. */
  key: Buffer;
  keyPrefix?: string;
  /** Where the key came from, named when a document cannot be opened with it. */
  keySource?: string;
  /** The most a command may take (MARTECH_STEPS_REDIS_TIMEOUT_MS); default 5 s. Ignored with `client`. */
  timeoutMs?: number;
}

/**
 * The credential store for several server replicas: each workspace's secrets are one AES-256-GCM
 * sealed document in Redis (the same format as the file store), so Redis never holds a secret in
 * clear and a reader without the key learns nothing.
 */
export class RedisCredentialStore implements CredentialStore {
  readonly #redis: RedisClient;
  readonly #owned: boolean;
  readonly #key: Buffer;
  readonly #prefix: string;
  readonly #keySource: string;
  readonly #timeoutMs: number;
  readonly #lock = new KeyedLock();
  /** The last document opened per workspace: the sealed text read, and its secrets as JSON. */
  readonly #opened = new Map<string, { stored: string; json: string }>();
  /** Reads under way per workspace, shared by concurrent callers (one GET for a burst of tool calls). */
  readonly #reading = new Map<string, Promise<string | null>>();
  /** Workspaces whose document this process has read or written: readiness checks they are still there. */
  readonly #seen = new Set<string>();

  constructor(options: RedisCredentialStoreOptions) {
    this.#key = options.key;
    // Every replica has this key: each accepts the cursors of the others, and no other deployment's.
    signCursorsWithStoreKey(options.key);
    this.#keySource = options.keySource ?? "the key given to RedisCredentialStore";
    this.#prefix = options.keyPrefix ?? "martech-steps:credentials:";
    this.#owned = !options.client;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
    this.#redis =
      options.client ??
      newRedisClient(options.target ?? options.url ?? "redis://127.0.0.1:6379", this.#timeoutMs);
    if (this.#owned) this.#redis.on("error", () => undefined);
  }

  async #get(workspace: string): Promise<string | null> {
    try {
      return await bounded(this.#redis.get(this.#prefix + checkWorkspaceName(workspace)), this.#timeoutMs);
    } catch (cause) {
      throw unreachable(cause, this.#timeoutMs);
    }
  }

  #open(workspace: string, stored: string | null): Opened {
    return stored === null
      ? { ok: true, secrets: emptySecrets() }
      : openSecrets(this.#key, stored, workspace);
  }

  /**
   * Every tool call reads the secrets: the GET stays (it is how a change by another replica is seen),
   * but a document identical to the last one opened is not decrypted again. Each caller gets its own copy.
   */
  async read(workspace: string): Promise<WorkspaceSecrets> {
    let reading = this.#reading.get(workspace);
    if (!reading) {
      reading = this.#get(workspace).finally(() => this.#reading.delete(workspace));
      this.#reading.set(workspace, reading);
    }
    const stored = await reading;
    if (stored !== null) this.#seen.add(workspace);
    const kept = this.#opened.get(workspace);
    if (stored !== null && kept?.stored === stored) return JSON.parse(kept.json) as WorkspaceSecrets;
    const opened = this.#open(workspace, stored);
    if (!opened.ok) throw new StoreUnreadableError(workspace, opened, this.#keySource);
    if (stored !== null) this.#opened.set(workspace, { stored, json: JSON.stringify(opened.secrets) });
    return opened.secrets;
  }

  /** Serialised within this process; compare-and-set (with a jittered retry) across replicas. */
  update(workspace: string, change: Change): Promise<WorkspaceSecrets> {
    return this.#lock.run(workspace, async () => (await this.#update(workspace, change, false)).secrets);
  }

  /**
   * A document that cannot be opened is kept under `{<key>}.corrupt-<time>` (or `.other-key-`): the
   * document's key as the hash tag, so that the one script that moves it writes one cluster slot.
   */
  updateOrStartOver(workspace: string, change: Change): Promise<StartedOver> {
    return this.#lock.run(workspace, () => this.#update(workspace, change, true));
  }

  async #update(workspace: string, change: Change, startOver: boolean): Promise<StartedOver> {
    const key = this.#prefix + workspace;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (attempt > 0) await sleep(Math.random() * 10 * attempt);
      const stored = await this.#get(workspace);
      const opened = this.#open(workspace, stored);
      if (!opened.ok && !startOver) {
        throw new StoreUnreadableError(workspace, opened, this.#keySource);
      }
      const secrets = change(opened.ok ? opened.secrets : emptySecrets());
      let lost: LostDocument | undefined;
      if (!opened.ok) {
        const stamp = new Date().toISOString().replaceAll(":", "-");
        const { reason, why } = opened;
        lost = {
          reason,
          why,
          keptAt: `${hashTag(key)}.${reason === "damaged" ? "corrupt" : "other-key"}-${stamp}`,
        };
      }
      const keys = lost ? [key, lost.keptAt] : [key];
      let written: unknown;
      try {
        written = await bounded(
          this.#redis.eval(
            COMPARE_AND_SET,
            keys.length,
            ...keys,
            stored ?? "",
            sealSecrets(this.#key, secrets, workspace),
          ),
          this.#timeoutMs,
        );
      } catch (cause) {
        throw unreachable(cause, this.#timeoutMs, true);
      }
      if (Number(written) === 1) {
        // A read started before this write must not answer callers that come after it.
        this.#reading.delete(workspace);
        this.#seen.add(workspace);
        return { secrets, lost };
      }
    }
    throw new NetworkError(`The credentials of workspace "${workspace}" kept changing while being updated.`, {
      hint: "Another replica is updating them at the same moment: try again.",
      retryable: true,
    });
  }

  /**
   * The workspaces whose document this process has seen, when Redis holds none of them any more: Redis
   * came back empty (restarted without persistence, flushed, failed over to an empty replica). The store
   * never deletes a document (removing a connection writes one without it). One workspace deleted by
   * hand (a tenant offboarded) while others remain is not a lost store: every replica shares this Redis,
   * so failing readiness for it took every replica out of the load balancer for the other workspaces too.
   */
  async missingDocuments(): Promise<string[]> {
    const seen = [...this.#seen];
    let present: number[];
    try {
      present = await bounded(
        Promise.all(seen.map((workspace) => this.#redis.exists(this.#prefix + workspace))),
        this.#timeoutMs,
      );
    } catch (cause) {
      throw unreachable(cause, this.#timeoutMs);
    }
    return present.some((count) => count > 0) ? [] : seen;
  }

  async close(): Promise<void> {
    if (this.#owned) this.#redis.disconnect();
  }
}

function unreachable(cause: unknown, timeoutMs: number, change = false): NetworkError {
  return redisError(
    "The credential store in Redis could not be reached",
    cause,
    "Without MARTECH_STEPS_STORE=redis the credentials are kept in the local encrypted file.",
    timeoutMs,
    change,
  );
}

/**
 * The process's credential store: the encrypted file by default, Redis with MARTECH_STEPS_STORE=redis
 * (then REDIS_URL or REDIS_CLUSTER_NODES, and MARTECH_STEPS_KEY, are required, since every replica must
 * open the same documents).
 */
export function parseStoreKind(env: NodeJS.ProcessEnv): "file" | "redis" {
  const kind = (env.MARTECH_STEPS_STORE ?? "file").trim() || "file";
  if (kind !== "file" && kind !== "redis") {
    throw new ConfigurationError(`MARTECH_STEPS_STORE is "${kind.slice(0, 20)}".`, {
      hint: 'Accepted: "file" (default, an encrypted file per workspace) or "redis" (shared by replicas).',
    });
  }
  if (
    kind === "redis" &&
    ((!env.REDIS_URL?.trim() && !env.REDIS_CLUSTER_NODES?.trim()) || !env.MARTECH_STEPS_KEY)
  ) {
    throw new ConfigurationError(
      "MARTECH_STEPS_STORE=redis needs REDIS_URL (or REDIS_CLUSTER_NODES) and MARTECH_STEPS_KEY.",
      {
        hint: "Every replica must reach the same Redis and open the documents with the same 32-byte key.",
      },
    );
  }
  return kind;
}
