import { AuthenticationError, ConfigurationError, NotFoundError, ValidationError } from "../../errors.js";
import type {
  CredentialStore,
  GoogleAccountRecord,
  GoogleOAuthClient,
  WorkspaceSecrets,
} from "../credential-store.js";
import {
  GA_SCOPES,
  type GoogleEndpoints,
  googleClientFrom,
  missingClientError,
  SCOPE_ANALYTICS,
  SCOPE_ANALYTICS_READONLY,
} from "./config.js";
import {
  InvalidGrantError,
  type OAuthHttp,
  type RevokeResult,
  refreshAccessToken,
  revokeToken,
  type TokenResponse,
} from "./oauth.js";
import {
  type AccountSummary,
  accountLabels,
  checkLabel,
  connectLabel,
  labelTaken,
  readImport,
  storedAccount,
  toSummary,
  withAccount,
} from "./records.js";
import { checkAccountService, serviceMismatch, serviceOf } from "./service.js";
import { beginSignIn, prepareSignIn } from "./sign-in.js";
import { type AccountTokenSource, createAccountTokenSource, type GoogleTokenSource } from "./token-source.js";

export type { AccountSummary } from "./records.js";
export type { GoogleTokenSource } from "./token-source.js";

export interface ConnectOptions {
  /** The account's name in this workspace. Default: the email's local part, else the email. */
  label?: string;
  openBrowser?: (url: string) => Promise<void> | void;
  onUrl?: (url: string) => void;
  /** How long to wait for the browser sign-in. Default 5 min. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Loopback port. Default 0 (any free port). */
  port?: number;
}

export interface GoogleAccountsDeps {
  store: CredentialStore;
  workspace: string;
  endpoints: GoogleEndpoints;
  env?: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  now?: () => number;
  /** Per token/revoke request (MARTECH_STEPS_REQUEST_TIMEOUT_MS). Default 30 s. */
  timeoutMs?: number | undefined;
}

const CONNECT_TIMEOUT_MS = 5 * 60_000;
const CONNECT_COMMAND = "martech-steps accounts connect";

function hasAnalyticsScope(scopes: readonly string[]): boolean {
  return scopes.includes(SCOPE_ANALYTICS_READONLY) || scopes.includes(SCOPE_ANALYTICS);
}

/** The connected Google accounts of one workspace, and their access tokens. */
export class GoogleAccounts {
  readonly #deps: GoogleAccountsDeps;
  /** Per label, with the OAuth client it refreshes with (the stored client may change under it). */
  readonly #sources = new Map<string, AccountTokenSource & { client: GoogleOAuthClient }>();

  constructor(deps: GoogleAccountsDeps) {
    this.#deps = deps;
  }

  get #http(): OAuthHttp {
    const injected = this.#deps.fetch;
    // Resolved per call so test interceptors installed after construction still apply.
    return {
      oauthUrl: this.#deps.endpoints.oauthUrl,
      fetch: injected ?? ((input, init) => fetch(input, init)),
      ...(this.#deps.timeoutMs ? { timeoutMs: this.#deps.timeoutMs } : {}),
    };
  }

  #now(): number {
    return (this.#deps.now ?? Date.now)();
  }

  #client(secrets: WorkspaceSecrets, own?: GoogleOAuthClient): GoogleOAuthClient {
    const client = own ?? googleClientFrom(this.#deps.env, secrets);
    if (!client) throw missingClientError();
    return client;
  }

  /** Browser sign-in (authorization code + PKCE + loopback redirect); resolves when the account is stored. */
  async connect(options: ConnectOptions = {}): Promise<AccountSummary> {
    const { done } = await this.beginConnect(options);
    return done;
  }

  /** Starts the sign-in and returns its URL at once (for MCP URL elicitation); `done` settles when it ends. */
  async beginConnect(options: ConnectOptions = {}): Promise<{ url: string; done: Promise<AccountSummary> }> {
    if (options.label !== undefined) checkLabel(options.label);
    const client = this.#client(await this.#deps.store.read(this.#deps.workspace));
    const { url, tokens } = await beginSignIn({
      client,
      authorizeUrl: this.#deps.endpoints.authorizeUrl,
      http: this.#http,
      timeoutMs: options.timeoutMs ?? CONNECT_TIMEOUT_MS,
      signal: options.signal,
      port: options.port,
      openBrowser: options.openBrowser,
      onUrl: options.onUrl,
    });
    return { url, done: this.#finishConnect(tokens, options.label) };
  }

  /**
   * Starts a sign-in whose redirect the caller receives itself (the browser console's own callback
   * page): the caller chose `redirectUri` and an unguessable `state`, and calls `finish` with the
   * code of the redirect that carried that state. The PKCE verifier stays inside.
   */
  async beginRedirectConnect(options: {
    redirectUri: string;
    state: string;
    label?: string;
  }): Promise<{ url: string; finish(code: string): Promise<AccountSummary> }> {
    if (options.label !== undefined) checkLabel(options.label);
    const client = this.#client(await this.#deps.store.read(this.#deps.workspace));
    const { url, exchange } = prepareSignIn({
      client,
      authorizeUrl: this.#deps.endpoints.authorizeUrl,
      http: this.#http,
      redirectUri: options.redirectUri,
      state: options.state,
    });
    return { url, finish: (code) => this.#finishConnect(exchange(code), options.label) };
  }

  async #finishConnect(tokens: Promise<TokenResponse>, label: string | undefined): Promise<AccountSummary> {
    const response = await tokens;
    try {
      return await this.#storeConnected(response, label);
    } catch (error) {
      // Not stored (label taken, no Analytics scope...): revoke the fresh grant rather than leave a
      // live token at Google that nothing will ever use or remove.
      if (response.refreshToken) await revokeToken(this.#http, response.refreshToken).catch(() => undefined);
      throw error;
    }
  }

  async #storeConnected(tokens: TokenResponse, requested: string | undefined): Promise<AccountSummary> {
    if (!tokens.refreshToken) {
      throw new AuthenticationError("Google returned no refresh token for this sign-in.", {
        hint: `Remove the app's access at https://myaccount.google.com/permissions, then run ${CONNECT_COMMAND} again.`,
      });
    }
    const scopes = tokens.scopes ?? [...GA_SCOPES];
    if (!hasAnalyticsScope(scopes)) {
      throw new AuthenticationError("The consent did not grant Google Analytics access.", {
        hint: `Run ${CONNECT_COMMAND} again and tick the Google Analytics permissions on the consent screen.`,
      });
    }
    const email = tokens.email;
    const refreshToken = tokens.refreshToken;
    let stored: GoogleAccountRecord | undefined;
    await this.#deps.store.update(this.#deps.workspace, (current) => {
      const label = connectLabel(current, email, requested);
      stored = {
        label,
        ...(email ? { email } : {}),
        scopes,
        addedAt: new Date(this.#now()).toISOString(),
        refreshToken,
        service: serviceOf(this.#deps.endpoints),
      };
      return withAccount(current, stored);
    });
    const record = stored as GoogleAccountRecord;
    // A reconnected account must stop using the cached manager of its old refresh token.
    this.#sources.delete(record.label);
    return toSummary(record);
  }

  /** Adds an account from a refresh token or gcloud's authorized_user JSON, validated by one refresh. */
  async importAccount(input: {
    label: string;
    refreshToken?: string;
    file?: string;
  }): Promise<AccountSummary> {
    const label = checkLabel(input.label);
    const grant = await readImport(input);
    const secrets = await this.#deps.store.read(this.#deps.workspace);
    if (storedAccount(secrets, label)) throw labelTaken(label);
    const client = this.#client(secrets, grant.client);
    let tokens: TokenResponse;
    try {
      tokens = await refreshAccessToken(this.#http, client, grant.refreshToken);
    } catch (error) {
      if (grant.client && error instanceof ConfigurationError && error.details.oauthError !== undefined) {
        // The client is the file's own (gcloud authorized_user), not GOOGLE_OAUTH_CLIENT_*: say so.
        throw new ConfigurationError(
          `Google does not accept the OAuth client of the imported file, its client_id and client_secret (${String(error.details.oauthError)}).`,
          {
            hint: `Check its client_id and client_secret, or make the file again (gcloud auth application-default login), or run ${CONNECT_COMMAND}.`,
            details: error.details,
          },
        );
      }
      if (!(error instanceof InvalidGrantError)) throw error;
      throw new AuthenticationError(
        "Google refused the imported token: this refresh token is expired or revoked.",
        {
          hint: `Get a new one, or connect the account in the browser (${CONNECT_COMMAND}).`,
        },
      );
    }
    if (tokens.scopes && !hasAnalyticsScope(tokens.scopes)) {
      throw new ValidationError(
        "refreshToken",
        "this refresh token was not granted Google Analytics access.",
        {
          hint: `Create it with the analytics.readonly and analytics.edit scopes (gcloud auth application-default login --scopes=...), or run ${CONNECT_COMMAND}.`,
        },
      );
    }
    const record: GoogleAccountRecord = {
      label,
      ...(tokens.email ? { email: tokens.email } : {}),
      scopes: tokens.scopes ?? [],
      addedAt: new Date(this.#now()).toISOString(),
      refreshToken: tokens.refreshToken ?? grant.refreshToken,
      ...(grant.client ? { client: grant.client } : {}),
      service: serviceOf(this.#deps.endpoints),
    };
    await this.#deps.store.update(this.#deps.workspace, (current) => {
      if (storedAccount(current, label)) throw labelTaken(label);
      return withAccount(current, record);
    });
    this.#sources.set(label, { ...this.#createSource(record, client, tokens), client });
    return toSummary(record);
  }

  async list(): Promise<AccountSummary[]> {
    const secrets = await this.#deps.store.read(this.#deps.workspace);
    return accountLabels(secrets).flatMap((label) => {
      const record = storedAccount(secrets, label);
      return record ? [toSummary(record)] : [];
    });
  }

  /** Revokes the account's grant at Google, then forgets it; it is forgotten even when revoking fails. */
  async remove(label: string): Promise<RevokeResult> {
    const secrets = await this.#deps.store.read(this.#deps.workspace);
    const record = typeof label === "string" ? storedAccount(secrets, label) : undefined;
    if (!record) {
      const labels = accountLabels(secrets);
      throw new NotFoundError("No connected Google account has this label.", {
        hint: labels.length ? `Connected accounts: ${labels.join(", ")}.` : "No Google account is connected.",
      });
    }
    // A token is only ever sent to the service that issued it: one of another service is forgotten unrevoked.
    const elsewhere = serviceMismatch(record, this.#deps.endpoints);
    const result: RevokeResult = elsewhere
      ? { revoked: false, reason: `not sent for revocation: ${elsewhere}` }
      : await revokeToken(this.#http, this.#sources.get(label)?.refreshToken() ?? record.refreshToken);
    await this.#deps.store.update(this.#deps.workspace, (current) => {
      const { [label]: _removed, ...rest } = current.googleAccounts;
      return { ...current, googleAccounts: rest };
    });
    this.#sources.delete(label);
    return result;
  }

  /** The token source of an account; `undefined` picks the only connected account. */
  async tokenSource(label: string | undefined): Promise<GoogleTokenSource> {
    const secrets = await this.#deps.store.read(this.#deps.workspace);
    const labels = accountLabels(secrets);
    if (labels.length === 0) {
      throw new ConfigurationError(`No Google account is connected to workspace "${this.#deps.workspace}".`, {
        hint: `Connect one with: ${CONNECT_COMMAND} (or import a refresh token with: martech-steps accounts import).`,
        // Lets the MCP adapter offer the sign-in URL to clients that support URL elicitation.
        details: { connection: "google" },
      });
    }
    if (label === undefined && labels.length > 1) {
      throw new ValidationError(
        "account",
        `several Google accounts are connected; choose one of: ${labels.join(", ")}.`,
      );
    }
    const chosen = label ?? (labels[0] as string);
    const record = storedAccount(secrets, chosen);
    if (!record) {
      throw new ValidationError(
        "account",
        `no connected Google account has this label. Choose one of: ${labels.join(", ")}.`,
      );
    }
    checkAccountService(record, this.#deps.endpoints);
    // Read at every call: an admin may have removed or replaced the OAuth client (another process
    // too), and a fresh process would then refuse or use the new one; the old secret is not kept on.
    const client = this.#client(secrets, record.client);
    const cached = this.#sources.get(chosen);
    // Another process may have reconnected the account meanwhile: then its cached manager is stale.
    if (
      cached &&
      cached.refreshToken() === record.refreshToken &&
      cached.client.clientId === client.clientId &&
      cached.client.clientSecret === client.clientSecret
    ) {
      return cached.source;
    }
    const created = { ...this.#createSource(record, client), client };
    this.#sources.set(chosen, created);
    return created.source;
  }

  #createSource(
    record: GoogleAccountRecord,
    client: GoogleOAuthClient,
    primed?: TokenResponse,
  ): AccountTokenSource {
    return createAccountTokenSource({
      label: record.label,
      refreshToken: record.refreshToken,
      client,
      http: this.#http,
      now: this.#deps.now,
      primed,
      saveRotated: async (previous, next) => {
        await this.#deps.store.update(this.#deps.workspace, (current) => {
          const existing = storedAccount(current, record.label);
          // Only replace the token we rotated: a reconnect meanwhile wins.
          if (!existing || existing.refreshToken !== previous) return current;
          return withAccount(current, { ...existing, refreshToken: next });
        });
      },
    });
  }
}
