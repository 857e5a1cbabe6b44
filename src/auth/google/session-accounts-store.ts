import { type CredentialStore, KeyedLock, type StartedOver, type WorkspaceSecrets } from "../store-core.js";
import type { GoogleAccountRecord, GoogleService } from "./stored.js";

type Accounts = Record<string, GoogleAccountRecord>;
type Change = (current: WorkspaceSecrets) => WorkspaceSecrets;

export interface SessionAccountsStoreOptions {
  /** The user's own store: everything except the session's accounts is read from and written to it. */
  base: CredentialStore;
  /** The service (the embedded sandbox) whose accounts belong to this session and are never written to `base`. */
  service: GoogleService;
  /** Accounts the session holds from the start, per workspace (the sandbox's pre-connected account). */
  held?: Record<string, Accounts>;
}

const sameService = (a: GoogleService | undefined, b: GoogleService) =>
  a !== undefined &&
  a.oauthUrl === b.oauthUrl &&
  a.dataApiUrl === b.dataApiUrl &&
  a.adminApiUrl === b.adminApiUrl;

const own = (accounts: Accounts, label: string) =>
  Object.hasOwn(accounts, label) ? accounts[label] : undefined;

/**
 * What `npm start` runs on when Google is on the embedded sandbox: the user's store, read and
 * written as always (the console's saves, every workspace's connections), with the sandbox's Google
 * accounts held in this process only. An account bound to the sandbox's service (the pre-connected
 * one, or one connected on the sandbox's consent page) is kept here, marked `sandbox`, and never
 * reaches `base`: a sandbox token in the user's store would later be taken for a real one (issue 8).
 * Where a held account shadows a stored one of the same label, the stored one is left untouched.
 */
export class SessionAccountsStore implements CredentialStore {
  readonly #base: CredentialStore;
  readonly #service: GoogleService;
  readonly #held = new Map<string, Accounts>();
  readonly #lock = new KeyedLock();

  constructor(options: SessionAccountsStoreOptions) {
    this.#base = options.base;
    this.#service = options.service;
    for (const [workspace, accounts] of Object.entries(options.held ?? {})) {
      this.#held.set(
        workspace,
        Object.fromEntries(Object.entries(accounts).map(([label, r]) => [label, { ...r, sandbox: true }])),
      );
    }
  }

  #isSession(record: GoogleAccountRecord): boolean {
    return record.sandbox === true || sameService(record.service, this.#service);
  }

  #overlay(workspace: string, stored: WorkspaceSecrets): WorkspaceSecrets {
    const held = this.#held.get(workspace) ?? {};
    return { ...stored, googleAccounts: { ...stored.googleAccounts, ...held } };
  }

  async read(workspace: string): Promise<WorkspaceSecrets> {
    return this.#overlay(workspace, await this.#base.read(workspace));
  }

  update(workspace: string, change: Change): Promise<WorkspaceSecrets> {
    return this.#lock.run(workspace, async () => {
      let held: Accounts = {};
      const written = await this.#base.update(workspace, (stored) => {
        const split = this.#split(workspace, stored, change(this.#overlay(workspace, stored)));
        held = split.held;
        return split.stored;
      });
      this.#held.set(workspace, held);
      return this.#overlay(workspace, written);
    });
  }

  updateOrStartOver(workspace: string, change: Change): Promise<StartedOver> {
    return this.#lock.run(workspace, async () => {
      if (!this.#base.updateOrStartOver) return { secrets: await this.update(workspace, change) };
      let held: Accounts = {};
      const { secrets, lost } = await this.#base.updateOrStartOver(workspace, (stored) => {
        const split = this.#split(workspace, stored, change(this.#overlay(workspace, stored)));
        held = split.held;
        return split.stored;
      });
      this.#held.set(workspace, held);
      return { secrets: this.#overlay(workspace, secrets), lost };
    });
  }

  /** Sorts the changed document's accounts: the session's are held here, the rest go to the user's store. */
  #split(
    workspace: string,
    stored: WorkspaceSecrets,
    next: WorkspaceSecrets,
  ): { stored: WorkspaceSecrets; held: Accounts } {
    const before = this.#held.get(workspace) ?? {};
    const held: Accounts = {};
    const kept: Accounts = {};
    for (const [label, record] of Object.entries(next.googleAccounts)) {
      if (this.#isSession(record)) held[label] = { ...record, sandbox: true };
      else kept[label] = record;
    }
    // A stored account shadowed by a held one (same label) is neither changed nor removed by the session.
    for (const label of [...Object.keys(before), ...Object.keys(held)]) {
      const shadowed = own(stored.googleAccounts, label);
      if (shadowed && !Object.hasOwn(kept, label)) kept[label] = shadowed;
    }
    return { stored: { ...next, googleAccounts: kept }, held };
  }

  async check(): Promise<void> {
    await this.#base.check?.();
  }

  async close(): Promise<void> {
    await this.#base.close?.();
  }
}
