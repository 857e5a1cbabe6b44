import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  SANDBOX_GOOGLE_USER,
  sandboxEnv,
  startGoogleSandbox,
  startMarketoSandbox,
} from "../sandbox/index.js";
import { parsePort } from "./serve.js";

/** `martech-steps sandbox`: the emulators alone, with the environment that points the product at them. */
export async function runSandbox(options: { marketoPort?: string; googlePort?: string }): Promise<void> {
  const marketo = await startMarketoSandbox({ port: parsePort(options.marketoPort, 4010) });
  const google = await startGoogleSandbox({ port: parsePort(options.googlePort, 4020) });
  const env = sandboxEnv({ marketo, google });
  // Even a sandbox token goes to a 0600 file rather than to the terminal.
  const tokenFile = join(tmpdir(), `martech-steps-sandbox-${new URL(google.url).port}.token`);
  await writeFile(tokenFile, google.issueRefreshToken(SANDBOX_GOOGLE_USER), { mode: 0o600 });
  const lines = [
    `Marketo sandbox: ${marketo.restEndpoint}`,
    `Google sandbox (OAuth, GA4 Data and Admin APIs): ${google.url}`,
    `Connect the sandbox's Google user ${SANDBOX_GOOGLE_USER}:`,
    `  martech-steps accounts import --label sandbox --refresh-token-file ${tokenFile}`,
    "Point martech-steps at it (sandbox credentials are public test values):",
    ...Object.entries(env).map(([name, value]) => `  export ${name}=${value}`),
    "Press Ctrl-C to stop.",
  ];
  process.stderr.write(`${lines.join("\n")}\n`);
  const stop = () => {
    Promise.all([marketo.close(), google.close()]).finally(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
