import { EventEmitter } from "node:events";
import {
  type CredentialStore,
  checkWorkspaceName,
  type MarketoCredentials,
} from "./auth/credential-store.js";
import { type AccountSummary, GoogleAccounts, type GoogleTokenSource } from "./auth/google/accounts.js";
import { type GoogleEndpoints, googleEndpointsFromEnv } from "./auth/google/config.js";
import { createCredentialStore } from "./auth/store.js";
import type { GoogleAnalyticsConnector } from "./connectors/google/connector.js";
import type { MarketoConnector, MarketoConnectorConfig } from "./connectors/marketo/connector.js";
import { parseRestEndpoint } from "./connectors/marketo/url.js";
import { ConfigurationError } from "./errors.js";
import { type ResultSettings, type ResultStore, resultSettings, sharedResultStore } from "./results/index.js";
import { positiveSetting } from "./settings.js";
import { createState } from "./state/index.js";
import type { SharedState } from "./state/types.js";
import type { ProgressUpdate, SchemaContext, ToolContext } from "./tools/types.js";

// The connectors load when a workspace first builds one: listing tools (stdio cold start, measured by
// the bench) needs none. Awaited before the cache checks below, so that concurrent first calls still
// build one connector (and make one token request).
let marketoModule: Promise<typeof import("./connectors/marketo/connector.js")> | undefined;
let googleModule: Promise<typeof import("./connectors/google/connector.js")> | undefined;

export const DEFAULT_WORKSPACE = "default";

export interface WorkspaceOptions {
  name?: string;
  env?: NodeJS.ProcessEnv;
  store?: CredentialStore;
  /** Shared limits state; one per process (or Redis), shared by every workspace of the process. */
  state?: SharedState;
  /** Where whole results of capped answers are kept; default the process's store for this environment. */
  results?: ResultStore;
  fetch?: typeof fetch;
}

function labelsOf(accounts: readonly AccountSummary[]): string {
  return JSON.stringify(accounts.map((a) => a.label).sort());
}

/** A bad MARKETO_REST_ENDPOINT is named as the variable, which is where the user has to fix it. */
function checkEnvEndpoint(value: string): void {
  try {
    parseRestEndpoint(value);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    throw new ConfigurationError(
      error.message.replace(/^The Marketo REST endpoint /, "MARKETO_REST_ENDPOINT "),
    );
  }
}

/**
 * A workspace binds tool steps to one set of credentials: its Marketo connection and its connected
 * Google accounts. Connectors are built here, so steps and adapters never see a credential. A
 * workspace only ever reads its own entry of the credential store.
 */
export class Workspace extends EventEmitter {
  readonly name: string;
  readonly store: CredentialStore;
  readonly state: SharedState;
  /** Whole results of capped answers, kept a while for this workspace (MCP resource links). */
  readonly results: ResultStore;
  readonly resultSettings: ResultSettings;
  readonly accounts: GoogleAccounts;
  readonly googleEndpoints: GoogleEndpoints;
  readonly #env: NodeJS.ProcessEnv;
  readonly #fetch: typeof fetch | undefined;
  #marketo: { key: string; connector: MarketoConnector } | undefined;
  /** Per account label; rebuilt when the account's token source changes (reconnected elsewhere). */
  readonly #google = new Map<string, { tokens: GoogleTokenSource; connector: GoogleAnalyticsConnector }>();
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
    this.#fetch = options.fetch;
    this.googleEndpoints = googleEndpointsFromEnv(this.#env);
    this.accounts = new GoogleAccounts({
      store: this.store,
      workspace: this.name,
      endpoints: this.googleEndpoints,
      env: this.#env,
      timeoutMs: positiveSetting(this.#env, "MARTECH_STEPS_REQUEST_TIMEOUT_MS"),
      ...(this.#fetch ? { fetch: this.#fetch } : {}),
    });
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

  #watchAccounts(intervalMs: number): void {
    if (this.#watchTimer) return;
    // The labels as watching starts: a change before the first tick is then noticed by that tick.
    this.#readLabels();
    this.#watchTimer = setInterval(() => {
      this.accounts.list().then(
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
    this.accounts.list().then(
      (accounts) => {
        this.#lastLabels ??= labelsOf(accounts);
      },
      () => undefined,
    );
  }

  /** Marketo credentials: the environment (default workspace only) wins over the store. */
  async marketoCredentials(): Promise<
    (MarketoCredentials & { source: "environment" | "store" }) | undefined
  > {
    const env = this.#env;
    if (
      this.name === DEFAULT_WORKSPACE &&
      env.MARKETO_CLIENT_ID &&
      env.MARKETO_CLIENT_SECRET &&
      env.MARKETO_REST_ENDPOINT
    ) {
      return {
        clientId: env.MARKETO_CLIENT_ID,
        clientSecret: env.MARKETO_CLIENT_SECRET,
        restEndpoint: env.MARKETO_REST_ENDPOINT,
        source: "environment",
      };
    }
    const stored = (await this.store.read(this.name)).marketo;
    return stored ? { ...stored, source: "store" } : undefined;
  }

  async marketo(): Promise<MarketoConnector> {
    const credentials = await this.marketoCredentials();
    if (!credentials) {
      // The MARKETO_* variables configure the default workspace only: one server process serves
      // several workspaces, and its environment must not become every tenant's connection.
      const how =
        this.name === DEFAULT_WORKSPACE
          ? "An admin runs `martech-steps marketo configure` (or sets MARKETO_CLIENT_ID, MARKETO_CLIENT_SECRET and MARKETO_REST_ENDPOINT)"
          : `An admin runs \`martech-steps marketo configure --workspace ${this.name}\` (the MARKETO_* variables apply to the default workspace only)`;
      throw new ConfigurationError(`Marketo is not configured for workspace "${this.name}".`, {
        hint: `${how} with the Client ID, Client Secret and REST API Endpoint of a LaunchPoint custom service.`,
      });
    }
    // Rebuild when an admin changed the credentials; otherwise keep the connector (and its token). The
    // endpoint is part of the key, so a kept connector's endpoint has been checked: every tool call
    // comes here, and parsing it again cost more than the rest of this method.
    const key = JSON.stringify([credentials.clientId, credentials.clientSecret, credentials.restEndpoint]);
    if (this.#marketo?.key === key) return this.#marketo.connector;
    if (credentials.source === "environment") checkEnvEndpoint(credentials.restEndpoint);
    const config: MarketoConnectorConfig = {
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      restEndpoint: credentials.restEndpoint,
      dailyQuota: positiveSetting(this.#env, "MARKETO_DAILY_QUOTA"),
      callsPerWindow: positiveSetting(this.#env, "MARKETO_CALLS_PER_WINDOW"),
      windowMs: positiveSetting(this.#env, "MARKETO_WINDOW_MS"),
      maxConcurrent: positiveSetting(this.#env, "MARKETO_MAX_CONCURRENT"),
      timeoutMs: positiveSetting(this.#env, "MARTECH_STEPS_REQUEST_TIMEOUT_MS"),
      deadlineMs: positiveSetting(this.#env, "MARTECH_STEPS_DEADLINE_MS"),
    };
    marketoModule ??= import("./connectors/marketo/connector.js");
    const { MarketoConnector } = await marketoModule;
    // Checked again after the await: concurrent first calls that all waited for the module share one
    // connector (and one token request).
    if (this.#marketo?.key !== key) {
      this.#marketo = {
        key,
        connector: new MarketoConnector(config, {
          state: this.state,
          ...(this.#fetch ? { fetch: this.#fetch } : {}),
        }),
      };
    }
    return this.#marketo.connector;
  }

  async google(label: string | undefined): Promise<GoogleAnalyticsConnector> {
    googleModule ??= import("./connectors/google/connector.js");
    const [tokens, { GoogleAnalyticsConnector }] = await Promise.all([
      this.accounts.tokenSource(label),
      googleModule,
    ]);
    const cached = this.#google.get(tokens.label);
    // GoogleAccounts gives a new token source when the stored refresh token changed (the account was
    // reconnected, maybe by another process or replica): a connector on the old one would keep failing.
    if (cached?.tokens === tokens) return cached.connector;
    const connector = new GoogleAnalyticsConnector({
      tokens,
      endpoints: this.googleEndpoints,
      state: this.state,
      timeoutMs: positiveSetting(this.#env, "MARTECH_STEPS_REQUEST_TIMEOUT_MS"),
      deadlineMs: positiveSetting(this.#env, "MARTECH_STEPS_DEADLINE_MS"),
      ...(this.#fetch ? { fetch: this.#fetch } : {}),
    });
    this.#google.set(tokens.label, { tokens, connector });
    return connector;
  }

  /** Call after connecting or removing an account, so MCP clients are told the tool list changed. */
  accountsChanged(): void {
    this.#google.clear();
    if (this.#watchTimer) this.#readLabels();
    this.emit("accountsChanged");
  }

  async connectAccount(options: Parameters<GoogleAccounts["connect"]>[0]): Promise<AccountSummary> {
    const summary = await this.accounts.connect(options);
    this.accountsChanged();
    return summary;
  }

  async importAccount(input: Parameters<GoogleAccounts["importAccount"]>[0]): Promise<AccountSummary> {
    const summary = await this.accounts.importAccount(input);
    this.accountsChanged();
    return summary;
  }

  /** Revokes the account at Google and forgets it. */
  async removeAccount(label: string): Promise<Awaited<ReturnType<GoogleAccounts["remove"]>>> {
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
    const accounts = await this.accounts.list();
    return { accounts: accounts.map((a) => a.label) };
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
      marketo: () => this.marketo(),
      google: (label) => this.google(label),
      signal: options.signal,
      deadlineMs: positiveSetting(this.#env, "MARTECH_STEPS_DEADLINE_MS"),
      progress: options.progress ?? (() => undefined),
      schemaContext: () => this.schemaContext(),
    };
  }
}
