import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { ConfigurationError, MartechError } from "../errors.js";
import { signCursorsWithKeyFrom, signCursorsWithStoreKey } from "./cursor-key.js";
import { type FileLockOptions, withFileLock } from "./file-lock.js";
import { loadOrCreateKeyFile, removeLeftoverTemps } from "./key-file.js";
import { type Opened, openSecrets, StoreUnreadableError, sealSecrets, type Unopenable } from "./sealed.js";
import {
  type CredentialStore,
  checkWorkspaceName,
  defaultHome,
  emptySecrets,
  KeyedLock,
  SANDBOX_HOME_PREFIX,
  type StartedOver,
  UNSET_SANDBOX,
  type WorkspaceSecrets,
} from "./store-core.js";
import {
  keyFileKeySync,
  keyFromEnv,
  readKeyFile,
  type StoreKey,
  storeFileError,
  warnIfOpen,
} from "./store-key.js";

export { StoreUnreadableError } from "./sealed.js";
export * from "./store-core.js";
export { parseKey } from "./store-key.js";

type Change = (current: WorkspaceSecrets) => WorkspaceSecrets;

export interface FileCredentialStoreOptions {
  home?: string;
  /** The store key; default MARTECH_STEPS_KEY, else the key file `<home>/key` (made on first write). */
  key?: Buffer;
  env?: NodeJS.ProcessEnv;
  lock?: FileLockOptions;
  /** Where the warning about a folder open to others goes; default stderr. */
  warn?: (message: string) => void;
}

/**
 * The default store: one sealed file per workspace under `<home>/workspaces`, mode 0600 in 0700
 * folders. Updates hold a lock shared by every process of the machine (two CLI commands, or a CLI
 * command and a server, never lose each other's change) and write through a rename, so a crash
 * never leaves half a file. A file that cannot be opened (damaged, or written with another key) is
 * reported and left alone until a command starts over: then it is moved aside
 * (`<name>.json.corrupt-<time>` or `.other-key-<time>`, 0600) and the command says where.
 */
export class FileCredentialStore implements CredentialStore {
  readonly home: string;
  /** MARTECH_STEPS_KEY (or the given key), parsed here so a malformed one fails at construction. */
  readonly #given: StoreKey | undefined;
  #loaded: StoreKey | undefined;
  #folderChecked = false;
  readonly #lock = new KeyedLock();
  /** The last document opened per workspace, by the file's identity and the key it was opened with. */
  readonly #opened = new Map<string, { version: string; key: StoreKey | undefined; json: Promise<string> }>();
  readonly #lockOptions: FileLockOptions;
  readonly #warn: (message: string) => void;
  /** Whether the cursor key was looked for: a workspace without a document never opens the key otherwise. */
  #cursorKeyLooked = false;

  constructor(options: FileCredentialStoreOptions = {}) {
    this.home = options.home ?? defaultHome(options.env);
    this.#given = options.key
      ? { key: options.key, source: "the key given to FileCredentialStore" }
      : keyFromEnv(options.env ?? process.env);
    this.#lockOptions = options.lock ?? {};
    this.#warn = options.warn ?? ((message) => process.stderr.write(`warning: ${message}\n`));
    if (this.#given) signCursorsWithStoreKey(this.#given.key);
    else signCursorsWithKeyFrom(() => keyFileKeySync(this.#keyFile));
  }

  get #keyFile(): string {
    return join(this.home, "key");
  }

  #path(workspace: string): string {
    return join(this.home, "workspaces", `${checkWorkspaceName(workspace)}.json`);
  }

  async check(): Promise<void> {
    await this.#warnIfOpen();
    await removeLeftoverTemps(this.home);
    await removeLeftoverTemps(join(this.home, "workspaces"));
    if (!this.#given) await readKeyFile(this.#keyFile);
  }

  async #warnIfOpen(): Promise<void> {
    await warnIfOpen(this.home, this.#warn);
    await warnIfOpen(join(this.home, "workspaces"), this.#warn);
  }

  /** The key to open existing documents with; undefined when the key file does not exist. */
  async #key(): Promise<StoreKey | undefined> {
    if (!this.#folderChecked) {
      this.#folderChecked = true;
      await this.#warnIfOpen();
    }
    if (this.#given) return this.#given;
    // The key file is checked at every use (a server keeps running while someone opens it up to
    // others); only a key that loaded is kept, so a refused key file is reported until it is fixed.
    this.#loaded = await readKeyFile(this.#keyFile, this.#loaded);
    if (this.#loaded) signCursorsWithStoreKey(this.#loaded.key);
    return this.#loaded;
  }

  async #keyForWrite(): Promise<StoreKey> {
    const key = await this.#key();
    if (key) return key;
    await this.#refuseStoppedSandbox();
    this.#loaded = await loadOrCreateKeyFile(this.home);
    signCursorsWithStoreKey(this.#loaded.key);
    return this.#loaded;
  }

  /**
   * A shell that evaluated a sandbox's exports keeps its MARTECH_STEPS_HOME after the sandbox stopped
   * and removed the folder: re-creating it would save real credentials into a stray temporary folder.
   */
  async #refuseStoppedSandbox(): Promise<void> {
    if (!basename(this.home).startsWith(SANDBOX_HOME_PREFIX)) return;
    const exists = await stat(this.home).then(
      () => true,
      () => false,
    );
    if (exists) return;
    throw new ConfigurationError(
      `The credential folder ${this.home} (MARTECH_STEPS_HOME) belonged to a sandbox that has stopped and removed it: nothing is saved there.`,
      { hint: `Go back to your own configuration with: ${UNSET_SANDBOX}` },
    );
  }

  async #open(workspace: string, text: string): Promise<Opened & { keySource: string }> {
    const key = await this.#key();
    if (!key) {
      // Never make a new key here: the document would then be unreadable for good.
      const why = "the key file it was written with is missing";
      return { ok: false, reason: "wrong_key", why, keySource: `the key file ${this.#keyFile}` };
    }
    return { ...openSecrets(key.key, text, workspace), keySource: key.source };
  }

  async #readText(path: string): Promise<string | undefined> {
    try {
      return await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw storeFileError("read", path, error);
    }
  }

  async read(workspace: string): Promise<WorkspaceSecrets> {
    if (!this.#cursorKeyLooked) {
      this.#cursorKeyLooked = true;
      // Cursors outlive this process once the key file exists; a refused key file is reported by the
      // reads and writes that need it, not here.
      await this.#key().catch(() => undefined);
    }
    return this.#current(workspace, this.#path(workspace));
  }

  update(workspace: string, change: Change): Promise<WorkspaceSecrets> {
    return this.#locked(workspace, async (path, assertHeld) => {
      const updated = change(await this.#current(workspace, path));
      await this.#write(workspace, path, updated, assertHeld);
      return updated;
    });
  }

  /**
   * The stored secrets. A file that cannot be opened is reported and left where it is: reading
   * (a server's request, its background poll) never moves or changes it; only starting over does.
   * Every tool call reads them, so the opened document is kept in memory and used again while the
   * file (inode, size, times: every write renames a new file into place) and the key are unchanged;
   * the checks are two stats, not a read and a decryption. Each caller gets its own copy.
   */
  async #current(workspace: string, path: string): Promise<WorkspaceSecrets> {
    const version = fileVersion(path);
    if (version === undefined) {
      this.#opened.delete(workspace);
      return emptySecrets();
    }
    const key = await this.#key();
    let kept = this.#opened.get(workspace);
    const sameKey = kept?.key === key || (kept?.key && key && kept.key.key.equals(key.key));
    if (!kept || kept.version !== version || !sameKey) {
      // Concurrent readers of one version share one opening; a failure is never kept.
      const entry = { version, key, json: this.#openJson(workspace, path) };
      this.#opened.set(workspace, entry);
      entry.json.catch(() => {
        if (this.#opened.get(workspace) === entry) this.#opened.delete(workspace);
      });
      kept = entry;
    }
    return JSON.parse(await kept.json) as WorkspaceSecrets;
  }

  async #openJson(workspace: string, path: string): Promise<string> {
    const text = await this.#readText(path);
    if (text === undefined) return JSON.stringify(emptySecrets());
    const opened = await this.#open(workspace, text);
    if (!opened.ok) throw new StoreUnreadableError(workspace, opened, opened.keySource);
    // The version was taken before the text was read: a change in between only makes the next read open it again.
    return JSON.stringify(opened.secrets);
  }

  updateOrStartOver(workspace: string, change: Change): Promise<StartedOver> {
    return this.#locked(workspace, async (path, assertHeld) => {
      const text = await this.#readText(path);
      const opened = text === undefined ? undefined : await this.#open(workspace, text);
      const secrets = change(opened?.ok ? opened.secrets : emptySecrets());
      if (!opened || opened.ok) {
        await this.#write(workspace, path, secrets, assertHeld);
        return { secrets };
      }
      // The new document is written first: when the key cannot be made or the folder is not
      // writable, that fails here and the unreadable document stays where it was.
      const temp = await this.#writeTemp(workspace, path, secrets);
      let keptAt: string;
      try {
        keptAt = await this.#setAside(path, opened.reason);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
      try {
        assertHeld();
        await rename(temp, path);
      } catch (error) {
        await rm(temp, { force: true });
        throw await this.#putBack(path, keptAt, error);
      }
      return { secrets, lost: { reason: opened.reason, why: opened.why, keptAt } };
    });
  }

  /** After a failed start-over: moves the old document back, or says where it is. */
  async #putBack(path: string, keptAt: string, cause: unknown): Promise<Error> {
    const failure = cause instanceof MartechError ? cause : storeFileError("write", path, cause);
    try {
      await rename(keptAt, path);
      return failure;
    } catch {
      return new ConfigurationError(
        `${failure.message} The unreadable document it was replacing is kept at ${keptAt}; nothing else changed.`,
        { hint: `To put it back: mv '${keptAt}' '${path}'`, cause },
      );
    }
  }

  #locked<T>(workspace: string, task: (path: string, assertHeld: () => void) => Promise<T>): Promise<T> {
    const path = this.#path(workspace);
    return this.#lock.run(workspace, async () => {
      await this.#refuseStoppedSandbox();
      const folder = join(this.home, "workspaces");
      await mkdir(folder, { recursive: true, mode: 0o700 }).catch((error: unknown) => {
        throw storeFileError("create", folder, error);
      });
      return withFileLock(path, this.#lockOptions, async (assertHeld) => {
        // A process killed mid-write (kill -9) leaves its temporary file: swept at the next write, under
        // the lock, when its process is gone (check() sweeps at start-up too; a server may run for weeks).
        await removeLeftoverTemps(folder);
        return task(path, assertHeld);
      });
    });
  }

  /** Renames an unreadable document out of the way (kept 0600) and returns where it went. */
  async #setAside(path: string, reason: Unopenable["reason"]): Promise<string> {
    const stamp = new Date().toISOString().replaceAll(":", "-");
    const aside = `${path}.${reason === "damaged" ? "corrupt" : "other-key"}-${stamp}`;
    try {
      await rename(path, aside);
      await chmod(aside, 0o600);
    } catch (error) {
      throw storeFileError("move aside", path, error);
    }
    return aside;
  }

  async #write(
    workspace: string,
    path: string,
    secrets: WorkspaceSecrets,
    assertHeld: () => void,
  ): Promise<void> {
    const temp = await this.#writeTemp(workspace, path, secrets);
    // Write then rename: a crash never leaves a half-written store.
    try {
      assertHeld();
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      if (error instanceof MartechError) throw error;
      throw storeFileError("write", path, error);
    }
  }

  /** Seals the document under the key for writing (made on first write) into a 0600 temporary file beside `path`. */
  async #writeTemp(workspace: string, path: string, secrets: WorkspaceSecrets): Promise<string> {
    const sealed = sealSecrets((await this.#keyForWrite()).key, secrets, workspace);
    const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      await writeFile(temp, sealed, { mode: 0o600 });
      await chmod(temp, 0o600);
    } catch (error) {
      await rm(temp, { force: true });
      throw storeFileError("write", path, error);
    }
    return temp;
  }
}

/**
 * The file's identity: a write renames a new file into place, so the inode changes, and size and
 * times tell the rest. A synchronous stat takes microseconds; an asynchronous one a thread-pool round
 * trip, ten times that, on every tool call. Undefined when there is no file (or it cannot be
 * stat-ed: then reading it reports why). A missing file is the common case (credentials in the
 * environment, no Google account), so it is asked for without an exception: building the ENOENT error
 * and its stack cost more than the stat itself, on every tool call.
 */
function fileVersion(path: string): string | undefined {
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    return info && `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
  } catch {
    return `unreadable:${Date.now()}`;
  }
}
