import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import {
  type MarketoSandbox,
  type MarketoSandboxOptions,
  startMarketoSandbox,
} from "../../src/sandbox/marketo/index.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace } from "../../src/workspace.js";

/** A secret planted in configuration; no output may ever contain it. */
export const CANARY_SECRET = "canary-7b1f0e9d-secret-must-never-appear";

export interface MarketoFixture {
  sandbox: MarketoSandbox;
  workspace: Workspace;
  close(): Promise<void>;
}

/** A Marketo sandbox whose client secret is the canary, and a workspace wired to it. */
export async function marketoFixture(
  options: MarketoSandboxOptions = {},
  env: NodeJS.ProcessEnv = {},
): Promise<MarketoFixture> {
  const sandbox = await startMarketoSandbox({ clientSecret: CANARY_SECRET, ...options });
  const workspace = new Workspace({
    env: {
      MARKETO_CLIENT_ID: sandbox.clientId,
      MARKETO_CLIENT_SECRET: sandbox.clientSecret,
      MARKETO_REST_ENDPOINT: sandbox.restEndpoint,
      ...env,
    },
    store: new MemoryCredentialStore(),
    state: new MemoryState(),
  });
  return { sandbox, workspace, close: () => sandbox.close() };
}
