/**
 * What GoogleAccounts is built from (its store, workspace, endpoints and clock) and what a browser sign-in
 * takes: the class's inputs, apart from its flows.
 */
import type { CredentialStore } from "../credential-store.js";
import type { GoogleEndpoints } from "./config.js";

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
