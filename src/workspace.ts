import { EventEmitter } from "node:events";
import { createCredentialStore } from "./auth/store.js";
import {
  type CredentialStore,
  checkWorkspaceName,
  DEFAULT_WORKSPACE,
  type WorkspaceSecrets,
} from "./auth/store-core.js";
import {
  ACCOUNTS_KIND,
  type AccountsOf,
  CONNECTION_ROOMS,
  type ConnectionKind,
  type ConnectorOf,
  type HandleOf,
} from "./connections/registry.js";
import type { RoomContext, SecretsTarget } from "./connections/types.js";
import { type ResultSettings, type ResultStore, resultSettings, sharedResultStore } from "./results/index.js";
import { positiveSetting } from "./settings.js";
import { createState } from "./state/index.js";
import type { SharedState } from "./state/types.js";
import type { ProgressUpdate, SchemaContext, ToolContext } from "./tools/types.js";

export { DEFAULT_WORKSPACE };

/** What connecting or importing an account answers (never a token). */
type AccountSummary = Awaited<ReturnType<AccountsOf["connect"]>>;

export interface WorkspaceOptions {
  name?: string;
  env?: NodeJS.ProcessEnv;
  store?: CredentialStore;
  /** Shared limits state; one per process (or Redis), shared by every workspace of the process. */
  state?: SharedState;
  /** Where whole results of capped answers are kept; default the process's store for this environment. */
  results?: ResultStore;
  fetch?: typeof fetch | undefined;
}

function labelsOf(labels: readonly string[]): string {
  return JSON.stringify([...labels].sort());
}

/**
 * A workspace binds tool steps to one set of credentials: a registry of connections, one per room of
 * src/connections (Marketo, the connected Google accounts, ...). Connectors are built by the rooms, so
 * steps and adapters never see a credential. A workspace only ever reads its own entry of the
 * credential store.
 */
export class Workspace extends EventEmitter {
  readonly name: string;
  readonly store: CredentialStore;
  readonly state: SharedState;
  /** Whole results of capped answers, kept a while for this workspace (MCP resource links). */
  readonly results: ResultStore;
  readonly resultSettings: ResultSettings;
  /** What the rooms open this workspace's connections with. */
  readonly context: RoomContext;
  /** This workspace's entry of the store, for the rooms' save and remove functions. */
  readonly secrets: SecretsTarget;
  readonly #env: NodeJS.ProcessEnv;
  readonly #handles = new Map<ConnectionKind, HandleOf<ConnectionKind>>();
  #watchTimer: NodeJS.Timeout | undefined;
  #lastLabels: string | undefined;

  constructor(options: WorkspaceOptions = {}) {
    super();
    this.name = checkWorkspaceName(options.name ?? DEFAULT_WORKSPACE);
    this.#env = options.env ?? process.env;
    this.store = options.store ?? createCredentialStore(this.#env);
    this.state = options.state ?? createState(this.#env);
    this.resultSettings = resultSettings(this.#env);
    this.results = options.results ?? sharedResultStore(this.#env);
    this.context = {
      workspace: this.name,
      isDefault: this.name === DEFAULT_WORKSPACE,
      env: this.#env,
      store: this.store,
      state: this.state,
      fetch: options.fetch,
    };
    const { store, name } = this;
    this.secrets = {
      workspace: name,
      read: () => store.read(name),
      update: (change: (current: WorkspaceSecrets) => WorkspaceSecrets) => store.update(name, change),
    };
    // Opened now: reading a bad setting of a room (an endpoint variable) fails the server at start.
    for (const kind of Object.keys(CONNECTION_ROOMS) as ConnectionKind[]) this.handle(kind);
    // Accounts may also change from another process (the CLI): while someone listens, poll the labels.
    // Read now: a bad value read only when a client first listens failed that client's every request
    // with a bare "Internal server error" from a server that had started fine.
    const pollMs = positiveSetting(this.#env, "MARTECH_STEPS_ACCOUNT_POLL_MS") ?? 5_000;
    this.on("newListener", (event: string) => {
      if (event === "accountsChanged") this.#watchAccounts(pollMs);
    });
    this.on("removeListener", () => {
      if (this.listenerCount("accountsChanged") === 0) {
        clearInterval(this.#watchTimer);
        this.#watchTimer = undefined;
      }
    });
  }

  /** This workspace's side of a room's connection (opened once, kept for the workspace's life). */
  handle<K extends ConnectionKind>(kind: K): HandleOf<K> {
    let handle = this.#handles.get(kind);
    if (!handle) {
      handle = CONNECTION_ROOMS[kind].open(this.context);
      this.#handles.set(kind, handle);
    }
    return handle as HandleOf<K>;
  }

  /**
   * The connector of a kind, bound to this workspace: `connection("marketo")`, or
   * `connection("google", label)` for a connected Google account (the only one when omitted). Throws a
   * ConfigurationError that says how to connect when the workspace has none.
   */
  connection<K extends ConnectionKind>(kind: K, account?: string): Promise<ConnectorOf<K>> {
    return this.handle(kind).connector(account) as Promise<ConnectorOf<K>>;
  }

  /**
   * The connected accounts of the room that holds them (`accounts: true` in the registry): their labels
   * are the steps' account choice and the schema context.
   */
  get accounts(): AccountsOf {
    return this.handle(ACCOUNTS_KIND).accounts;
  }

  #watchAccounts(intervalMs: number): void {
    if (this.#watchTimer) return;
    // The labels as watching starts: a change before the first tick is then noticed by that tick.
    this.#readLabels();
    this.#watchTimer = setInterval(() => {
      this.accounts.labels().then(
        (accounts) => {
          const labels = labelsOf(accounts);
          if (this.#lastLabels !== undefined && labels !== this.#lastLabels) this.accountsChanged();
          else this.#lastLabels = labels;
        },
        () => undefined,
      );
    }, intervalMs);
    this.#watchTimer.unref();
  }

  /** Sets the labels the poll compares against, unless a tick has set them meanwhile. */
  #readLabels(): void {
    this.#lastLabels = undefined;
    this.accounts.labels().then(
      (accounts) => {
        this.#lastLabels ??= labelsOf(accounts);
      },
      () => undefined,
    );
  }

  /** Call after connecting or removing an account, so MCP clients are told the tool list changed. */
  accountsChanged(): void {
    this.handle(ACCOUNTS_KIND).forget();
    if (this.#watchTimer) this.#readLabels();
    this.emit("accountsChanged");
  }

  async connectAccount(options: Parameters<AccountsOf["connect"]>[0]): Promise<AccountSummary> {
    const summary = await this.accounts.connect(options);
    this.accountsChanged();
    return summary;
  }

  async importAccount(input: Parameters<AccountsOf["importAccount"]>[0]): Promise<AccountSummary> {
    const summary = await this.accounts.importAccount(input);
    this.accountsChanged();
    return summary;
  }

  /** Revokes the account at its service and forgets it. */
  async removeAccount(label: string): Promise<Awaited<ReturnType<AccountsOf["remove"]>>> {
    const outcome = await this.accounts.remove(label);
    this.accountsChanged();
    return outcome;
  }

  /** Stops watching accounts and closes the state and store connections (Redis). */
  async close(): Promise<void> {
    this.removeAllListeners("accountsChanged");
    clearInterval(this.#watchTimer);
    await this.state.close();
    await this.store.close?.();
  }

  async schemaContext(): Promise<SchemaContext> {
    return { accounts: await this.accounts.labels() };
  }

  /**
   * The context a tool step handler runs with. The schema context (the connected accounts) is read when
   * the step's input schema asks for it, at the call: a Marketo step never needs it, and reading the
   * credential store for it cost a tenth of such a call.
   */
  async toolContext(options: {
    signal?: AbortSignal | undefined;
    progress?: (update: ProgressUpdate) => void;
  }): Promise<ToolContext & { schemaContext: () => Promise<SchemaContext> }> {
    return {
      connection: (kind, account) => this.connection(kind, account),
      signal: options.signal,
      deadlineMs: positiveSetting(this.#env, "MARTECH_STEPS_DEADLINE_MS"),
      progress: options.progress ?? (() => undefined),
      schemaContext: () => this.schemaContext(),
    };
  }
}
