import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { type GoogleSandbox, sandboxEnv, startGoogleSandbox } from "../../src/sandbox/index.js";
import {
  type MarketoSandbox,
  type MarketoSandboxOptions,
  startMarketoSandbox,
} from "../../src/sandbox/marketo/index.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace, type WorkspaceOptions } from "../../src/workspace.js";

/** A secret planted in configuration; no output may ever contain it. */
export const CANARY_SECRET = "canary-7b1f0e9d-secret-must-never-appear";

export interface MarketoFixture {
  sandbox: MarketoSandbox;
  workspace: Workspace;
  close(): Promise<void>;
}

/** A workspace wired to a Marketo sandbox, with its own store and state; `options` adds to or replaces them. */
export function marketoWorkspace(
  sandbox: MarketoSandbox,
  options: Omit<WorkspaceOptions, "env"> = {},
  env: NodeJS.ProcessEnv = {},
): Workspace {
  return new Workspace({
    env: {
      MARKETO_CLIENT_ID: sandbox.clientId,
      MARKETO_CLIENT_SECRET: sandbox.clientSecret,
      MARKETO_REST_ENDPOINT: sandbox.restEndpoint,
      ...env,
    },
    store: new MemoryCredentialStore(),
    state: new MemoryState(),
    ...options,
  });
}

/** A Marketo sandbox whose client secret is the canary, and a workspace wired to it. */
export async function marketoFixture(
  options: MarketoSandboxOptions = {},
  env: NodeJS.ProcessEnv = {},
): Promise<MarketoFixture> {
  const sandbox = await startMarketoSandbox({ clientSecret: CANARY_SECRET, ...options });
  const workspace = marketoWorkspace(sandbox, {}, env);
  return { sandbox, workspace, close: () => sandbox.close() };
}

export interface GoogleFixture {
  sandbox: GoogleSandbox;
  workspace: Workspace;
  close(): Promise<void>;
}

/** A Google sandbox and a workspace with one connected account, labelled "analyst". */
/** `now`: the sandbox's clock (its 400 days of data end there); default the real one. */
export async function googleFixture(now?: () => number): Promise<GoogleFixture> {
  const sandbox = await startGoogleSandbox(now ? { now } : {});
  const workspace = new Workspace({
    env: sandboxEnv({ google: sandbox }),
    store: new MemoryCredentialStore(),
    state: new MemoryState(),
  });
  await workspace.accounts.importAccount({
    label: "analyst",
    refreshToken: sandbox.issueRefreshToken("analyst@sandbox.example"),
  });
  return { sandbox, workspace, close: () => sandbox.close() };
}
