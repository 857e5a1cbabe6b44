import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tempDir } from "../temp.js";
import { canary, findLeaks, type Leak } from "./canary.js";
import { type Fake, type FakeCredentials, fakeEnv, startFakeGoogle, startFakeMarketo } from "./fakes.js";
import type { Scenario } from "./scenarios.js";
import type { Handler, Seen } from "./server.js";

/**
 * Both fakes with fresh canary credentials, a temporary MARTECH_STEPS_HOME and the environment that
 * points the product at them (trace logging, short deadlines so retried failures end quickly).
 */
export interface Harness {
  marketo: Fake;
  google: Fake;
  creds: { marketo: FakeCredentials; google: FakeCredentials };
  home: string;
  env: Record<string, string>;
  /** Every canary: the Marketo client id, both client secrets, the refresh token, every access token the fakes issued. */
  canaries(): string[];
  /** Puts a scenario's handlers in front of the fakes' defaults. */
  use(handlers: { marketo?: Handler[]; google?: Handler[] }): void;
  refreshTokenFile(): Promise<string>;
  /** Another pair of fakes with the same credentials (for scenarios run side by side), and its env. */
  /** Every request any of the fakes received. */
  seen(): Seen[];
  fork(): Promise<{ env: Record<string, string>; use: Harness["use"]; marketo: Fake; google: Fake }>;
  close(): Promise<void>;
}

export async function startHarness(extraEnv: Record<string, string> = {}): Promise<Harness> {
  const creds = {
    marketo: {
      clientId: canary("mktoid"),
      clientSecret: canary("mktosecret"),
      tokenPrefix: canary("mktotok"),
    },
    google: {
      clientId: `${canary("gclient")}.apps.googleusercontent.com`,
      clientSecret: canary("gsecret"),
      refreshToken: `1//${canary("grefresh")}`,
      tokenPrefix: `ya29.${canary("gtok")}`,
    },
  };
  const marketo = await startFakeMarketo(creds.marketo);
  const google = await startFakeGoogle(creds.google);
  const home = await tempDir("martech-trust-");
  const env = {
    ...fakeEnv(marketo, google, creds),
    MARTECH_STEPS_HOME: home,
    MARTECH_STEPS_LOG_LEVEL: "trace",
    MARTECH_STEPS_DEADLINE_MS: "1000",
    MARTECH_STEPS_REQUEST_TIMEOUT_MS: "500",
    ...extraEnv,
  };
  const forks: Fake[] = [];
  const homes = [home];
  return {
    marketo,
    google,
    creds,
    home,
    env,
    canaries: () => [
      creds.marketo.clientId,
      creds.marketo.clientSecret,
      creds.marketo.tokenPrefix,
      // Not the Google client id: it is public (RFC 6749 §2.2), in every authorize URL Google's sign-in
      // opens (https://developers.google.com/identity/protocols/oauth2/native-app), and Google's own
      // SERVICE_DISABLED errors name its project number in the link that fixes them; so it is not redacted.
      creds.google.clientSecret,
      creds.google.refreshToken,
      creds.google.tokenPrefix,
      ...[marketo, google, ...forks].flatMap((fake) => fake.issued),
    ],
    use(handlers) {
      marketo.server.script = handlers.marketo ?? [];
      google.server.script = handlers.google ?? [];
    },
    async refreshTokenFile() {
      const file = join(home, "refresh-token.txt");
      await writeFile(file, creds.google.refreshToken, { mode: 0o600 });
      return file;
    },
    seen: () => [marketo, google, ...forks].flatMap((fake) => fake.server.seen),
    async fork() {
      const m = await startFakeMarketo(creds.marketo);
      const g = await startFakeGoogle(creds.google);
      forks.push(m, g);
      // A store of its own: a stored Google account is bound to the endpoints it was connected
      // against, so the harness's account is refused on the fork's (import it there instead).
      const forkHome = await tempDir("martech-trust-fork-");
      homes.push(forkHome);
      return {
        marketo: m,
        google: g,
        env: { ...env, ...fakeEnv(m, g, creds), MARTECH_STEPS_HOME: forkHome },
        use(handlers) {
          m.server.script = handlers.marketo ?? [];
          g.server.script = handlers.google ?? [];
        },
      };
    },
    async close() {
      for (const fake of [marketo, google, ...forks]) await fake.close();
      for (const dir of homes) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The leaks in what was collected, with enough context to find the path that leaked. */
export function leaksIn(outputs: readonly string[], harness: Harness): Leak[] {
  return findLeaks(outputs.join("\n"), harness.canaries());
}

/** What every scenario proves the fakes did: they were sent the canaries, and echoed them back. */
export function echoedCanaries(harness: Harness): number {
  const seen = harness.seen();
  return seen.filter(
    (s) => findLeaks(`${s.headers.authorization ?? ""} ${s.body}`, harness.canaries()).length > 0,
  ).length;
}

export type { Scenario };
