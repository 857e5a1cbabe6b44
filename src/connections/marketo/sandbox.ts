/** The Marketo room's sandbox wiring: the emulator, and its public test credentials as the connection. */
import { type MarketoSandbox, startMarketoSandbox } from "../../sandbox/index.js";
import type { SandboxWiring } from "../types.js";

export const MARKETO_SANDBOX: SandboxWiring<MarketoSandbox> = {
  start: (port) => startMarketoSandbox({ port }),
  env: (emulator) => ({
    MARKETO_CLIENT_ID: emulator.clientId,
    MARKETO_CLIENT_SECRET: emulator.clientSecret,
    MARKETO_REST_ENDPOINT: emulator.restEndpoint,
  }),
  async connect(store, workspace, emulator) {
    const { clientId, clientSecret, restEndpoint } = emulator;
    await store.update(workspace, (current) => ({
      ...current,
      marketo: { clientId, clientSecret, restEndpoint },
    }));
  },
  describe: (emulator) => `sandbox at ${emulator.restEndpoint}`,
  banner: (emulator) => [`Marketo sandbox: ${emulator.restEndpoint}`],
};
