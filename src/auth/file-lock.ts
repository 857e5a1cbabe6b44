// Loaded on the first write, not at import: proper-lockfile and what it requires (graceful-fs, retry,
// signal-exit: 13 CommonJS modules) were the largest piece of `serve`'s start that reading never needs.
// signal-exit re-raises SIGINT/SIGTERM/SIGHUP when its listeners are the last ones left, so the CLI's own
// signal handlers stay registered (`on`, never `once`) while they clean up: see src/cli/signals.ts.
import { NetworkError } from "../errors.js";
import { storeFileError } from "./store-key.js";

export interface FileLockOptions {
  /**
   * A lock whose folder has not been touched for this long is taken as left by a dead process and
   * removed. The holder touches it every staleMs / 2, so a live holder never looks stale. Default 10 s.
   */
  staleMs?: number;
  /** How long to wait for the lock before giving up. Default staleMs + 5 s (outlasts a dead holder). */
  waitMs?: number;
}

const DEFAULT_STALE_MS = 10_000;

/**
 * Runs `task` while holding a lock shared by every process on this machine: proper-lockfile makes
 * `<file>.lock` with mkdir (atomic on every local filesystem, and on NFS) and keeps its mtime fresh;
 * a lock left by a crashed process goes stale and is taken over. `assertHeld` throws if the lock
 * was lost meanwhile (an event loop frozen for longer than staleMs), so the task can refuse to
 * commit a write another process may have overtaken.
 */
export async function withFileLock<T>(
  file: string,
  options: FileLockOptions,
  task: (assertHeld: () => void) => Promise<T>,
): Promise<T> {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const waitMs = options.waitMs ?? staleMs + 5_000;
  let lost: Error | undefined;
  let release: () => Promise<void>;
  try {
    const { default: lockfile } = await import("proper-lockfile");
    release = await lockfile.lock(file, {
      realpath: false,
      stale: staleMs,
      retries: {
        retries: 300,
        factor: 1.3,
        minTimeout: 5,
        maxTimeout: 200,
        randomize: true,
        maxRetryTime: waitMs,
      },
      onCompromised: (error) => {
        lost = error;
      },
    });
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ELOCKED") {
      throw new NetworkError(`The credential store is busy: ${file}.lock is held by another process.`, {
        hint: `Try again. If no martech-steps command is running, the lock is left over: remove the folder ${file}.lock.`,
        retryable: true,
        cause,
      });
    }
    throw storeFileError("lock", file, cause);
  }
  try {
    return await task(() => {
      if (lost) {
        throw new NetworkError("The credential store lock was lost while updating; nothing was written.", {
          hint: "This process was paused for longer than the lock lasts: try again.",
          retryable: true,
          cause: lost,
        });
      }
    });
  } finally {
    await release().catch(() => undefined);
  }
}
