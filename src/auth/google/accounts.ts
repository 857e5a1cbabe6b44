import { ValidationError } from "../../errors.js";
import { Redactor } from "../../redact.js";
import type { WorkspaceSecrets } from "../credential-store.js";
import { ADC_LABEL, AdcSources, adcFile, adcSummary, unknownLabel } from "./adc.js";
import { googleClientFrom, missingClientError } from "./config.js";
import { checkSignIn, noAccount, validateImportedToken } from "./import-checks.js";
import { type OAuthHttp, type RevokeResult, revokeToken, type TokenResponse } from "./oauth.js";
import {
  type AccountSummary,
  accountLabels,
  checkLabel,
  connectLabel,
  type ImportInput,
  labelTaken,
  readImport,
  sameAccount,
  storedAccount,
  toSummary,
  withAccount,
  withoutAccount,
} from "./records.js";
import { checkAccountService, serviceMismatch, serviceOf } from "./service.js";
import {
  createServiceAccountTokenSource,
  keyNotRevoked,
  redactKey,
  SERVICE_ACCOUNT_SCOPES,
  serviceAccountToken,
} from "./service-account.js";
import type { GoogleAccountRecord, GoogleOAuthClient, GoogleServiceAccountKey } from "./stored.js";
import { type AccountTokenSource, createAccountTokenSource, type GoogleTokenSource } from "./token-source.js";

/** The sign-in flows (and their loopback server), loaded when a person signs in, not on every start. */
const signIn = () => import("./sign-in.js");

export type { AccountSummary } from "./records.js";
export type { GoogleTokenSource } from "./token-source.js";

import type { ConnectOptions, GoogleAccountsDeps } from "./account-options.js";

export type { ConnectOptions, GoogleAccountsDeps } from "./account-options.js";

const CONNECT_TIMEOUT_MS = 5 * 60_000;

const sameKey = (a: GoogleServiceAccountKey, b: GoogleServiceAccountKey): boolean =>
  a.privateKeyId === b.privateKeyId && a.privateKey === b.privateKey && a.subject === b.subject;

/** The connected Google accounts of one workspace, and their access tokens. */
export class GoogleAccounts {
  readonly #deps: GoogleAccountsDeps;
  /** Per label, with the OAuth client it refreshes with (the stored client may change under it). */
  readonly #sources = new Map<string, AccountTokenSource & { client: GoogleOAuthClient }>();
  /** Per label of a service account, with the key it signs with. */
  readonly #serviceSources = new Map<string, { key: GoogleServiceAccountKey; source: GoogleTokenSource }>();
  readonly #adc = new AdcSources();

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

  get #env(): NodeJS.ProcessEnv {
    return this.#deps.env ?? process.env;
  }

  get #tokenUrl(): string {
    return `${this.#deps.endpoints.oauthUrl.replace(/\/+$/, "")}/token`;
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
    const { beginSignIn } = await signIn();
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
    const { prepareSignIn } = await signIn();
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
    const { scopes, refreshToken } = checkSignIn(tokens);
    const email = tokens.email;
    let stored: GoogleAccountRecord | undefined;
    let replaced = false;
    let renamedFrom: string | undefined;
    let labelRefused: string | undefined;
    await this.#deps.store.update(this.#deps.workspace, (current) => {
      const chosen = connectLabel(current, email, requested);
      const { label, renamedFrom: old } = chosen;
      replaced = chosen.replaced;
      renamedFrom = old;
      labelRefused = chosen.labelRefused;
      stored = {
        label,
        ...(email ? { email } : {}),
        scopes,
        addedAt: new Date(this.#now()).toISOString(),
        refreshToken,
        service: serviceOf(this.#deps.endpoints),
      };
      return withAccount(old ? withoutAccount(current, old) : current, stored);
    });
    const record = stored as GoogleAccountRecord;
    // A reconnected account must stop using the cached manager of its old refresh token.
    this.#forgetSources(record.label);
    if (renamedFrom) this.#forgetSources(renamedFrom);
    const how = { ...(renamedFrom ? { renamedFrom } : {}), ...(labelRefused ? { labelRefused } : {}) };
    return toSummary(replaced ? { ...record, replaced, ...how } : record);
  }

  #forgetSources(label: string): void {
    this.#sources.delete(label);
    this.#serviceSources.delete(label);
  }

  /**
   * Adds an account from a refresh token, gcloud's authorized_user JSON or a service account's JSON
   * key (with `subject`, the user it impersonates), validated by one token request.
   */
  async importAccount(input: ImportInput & { label: string }): Promise<AccountSummary> {
    const label = checkLabel(input.label);
    const grant = await readImport(input, this.#tokenUrl);
    const secrets = await this.#deps.store.read(this.#deps.workspace);
    // Refused before any token request, unless it may be the same account again (#storeImported decides).
    if (storedAccount(secrets, label) && !storedAccount(secrets, label)?.email) throw labelTaken(label);
    if (grant.kind === "service_account") return this.#importServiceAccount(label, grant.key);
    const client = this.#client(secrets, grant.client);
    const tokens = await validateImportedToken(
      this.#http,
      client,
      grant.refreshToken,
      grant.client !== undefined,
    );
    const record: GoogleAccountRecord = {
      label,
      ...(tokens.email ? { email: tokens.email } : {}),
      scopes: tokens.scopes ?? [],
      addedAt: new Date(this.#now()).toISOString(),
      refreshToken: tokens.refreshToken ?? grant.refreshToken,
      ...(grant.client ? { client: grant.client } : {}),
      service: serviceOf(this.#deps.endpoints),
    };
    const stored = await this.#storeImported(record);
    this.#sources.set(stored.label, { ...this.#createSource(stored, client, tokens), client });
    return toSummary(stored);
  }

  /** A service account: one assertion exchanged now proves the key works before it is stored. */
  async #importServiceAccount(label: string, key: GoogleServiceAccountKey): Promise<AccountSummary> {
    const redactor = redactKey(new Redactor(), key);
    const tokens = await serviceAccountToken(this.#http, label, key, redactor, this.#now());
    const record: GoogleAccountRecord = {
      label,
      email: key.subject ?? key.clientEmail,
      scopes: tokens.scopes ?? [...SERVICE_ACCOUNT_SCOPES],
      addedAt: new Date(this.#now()).toISOString(),
      serviceAccount: key,
      service: serviceOf(this.#deps.endpoints),
    };
    const stored = await this.#storeImported(record);
    const source = createServiceAccountTokenSource({
      label: stored.label,
      key,
      http: this.#http,
      now: this.#deps.now,
      primed: tokens,
    });
    this.#serviceSources.set(stored.label, { key, source });
    return toSummary(stored);
  }

  /** Stores an imported account; the same Google account replaces its old one (sameAccount), as a connect does. */
  async #storeImported(record: GoogleAccountRecord): Promise<GoogleAccountRecord & { replaced?: boolean }> {
    let stored: GoogleAccountRecord & { replaced?: boolean } = record;
    await this.#deps.store.update(this.#deps.workspace, (current) => {
      const same = sameAccount(current, record.email);
      if (!same && storedAccount(current, record.label)) throw labelTaken(record.label);
      stored = same ? { ...record, label: same, replaced: true } : record;
      const { replaced: _mark, ...saved } = stored;
      return withAccount(current, saved);
    });
    this.#forgetSources(stored.label);
    return stored;
  }

  /**
   * The labels of list(), without reading GOOGLE_APPLICATION_CREDENTIALS' file: the tool list's account
   * choice needs no more, and a listing must never wait on that file (a FIFO or a hung mount blocked every
   * tools/list).
   */
  async labels(): Promise<string[]> {
    const secrets = await this.#deps.store.read(this.#deps.workspace);
    const labels = accountLabels(secrets).filter((label) => storedAccount(secrets, label));
    const adc = adcFile(this.#env, this.#deps.workspace);
    if (adc && !labels.includes(ADC_LABEL)) labels.push(ADC_LABEL);
    return labels.sort((a, b) => (a < b ? -1 : 1));
  }

  /** The stored accounts, and GOOGLE_APPLICATION_CREDENTIALS' (default workspace) unless one is stored under its label. */
  async list(): Promise<AccountSummary[]> {
    const secrets = await this.#deps.store.read(this.#deps.workspace);
    const summaries = accountLabels(secrets).flatMap((label) => {
      const record = storedAccount(secrets, label);
      return record ? [toSummary(record)] : [];
    });
    const adc = adcFile(this.#env, this.#deps.workspace);
    if (adc && !summaries.some((summary) => summary.label === ADC_LABEL)) {
      summaries.push(await adcSummary(adc, this.#tokenUrl));
      summaries.sort((a, b) => (a.label < b.label ? -1 : 1));
    }
    return summaries;
  }

  /** Revokes the account's grant at Google, then forgets it; it is forgotten even when revoking fails. */
  async remove(label: string): Promise<RevokeResult> {
    const secrets = await this.#deps.store.read(this.#deps.workspace);
    const record = typeof label === "string" ? storedAccount(secrets, label) : undefined;
    if (!record) throw unknownLabel(label, accountLabels(secrets), adcFile(this.#env, this.#deps.workspace));
    // A token is only ever sent to the service that issued it: one of another service is forgotten unrevoked.
    const elsewhere = serviceMismatch(record, this.#deps.endpoints);
    const result: RevokeResult = record.serviceAccount
      ? keyNotRevoked(record.serviceAccount)
      : elsewhere
        ? { revoked: false, reason: `not sent for revocation: ${elsewhere}` }
        : await revokeToken(
            this.#http,
            this.#sources.get(label)?.refreshToken() ?? (record.refreshToken as string),
          );
    await this.#deps.store.update(this.#deps.workspace, (current) => {
      return withoutAccount(current, label);
    });
    this.#forgetSources(label);
    return result;
  }

  /** The token source of an account; `undefined` picks the only connected account. */
  async tokenSource(label: string | undefined): Promise<GoogleTokenSource> {
    const secrets = await this.#deps.store.read(this.#deps.workspace);
    const stored = accountLabels(secrets);
    const adc = adcFile(this.#env, this.#deps.workspace);
    const fromEnv = adc !== undefined && !stored.includes(ADC_LABEL);
    const labels = fromEnv ? [...stored, ADC_LABEL].sort() : stored;
    if (labels.length === 0) throw noAccount(this.#deps.workspace);
    if (label === undefined && labels.length > 1) {
      throw new ValidationError(
        "account",
        `several Google accounts are connected; choose one of: ${labels.join(", ")}.`,
      );
    }
    const chosen = label ?? (labels[0] as string);
    if (fromEnv && chosen === ADC_LABEL) {
      return this.#adc.source(adc, this.#http, (own) => this.#client(secrets, own), this.#deps.now);
    }
    const record = storedAccount(secrets, chosen);
    if (!record) {
      throw new ValidationError(
        "account",
        `no connected Google account has this label. Choose one of: ${labels.join(", ")}.`,
      );
    }
    checkAccountService(record, this.#deps.endpoints);
    if (record.serviceAccount) return this.#serviceAccountSource(record, record.serviceAccount);
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

  /** The kept source while the stored key is the same one (another process may have imported a new key). */
  #serviceAccountSource(record: GoogleAccountRecord, key: GoogleServiceAccountKey): GoogleTokenSource {
    const cached = this.#serviceSources.get(record.label);
    if (cached && sameKey(cached.key, key)) return cached.source;
    const source = createServiceAccountTokenSource({
      label: record.label,
      key,
      http: this.#http,
      now: this.#deps.now,
    });
    this.#serviceSources.set(record.label, { key, source });
    return source;
  }

  #createSource(
    record: GoogleAccountRecord,
    client: GoogleOAuthClient,
    primed?: TokenResponse,
  ): AccountTokenSource {
    return createAccountTokenSource({
      label: record.label,
      refreshToken: record.refreshToken as string,
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
