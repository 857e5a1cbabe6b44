import { GoogleAccounts, type GoogleTokenSource } from "../../auth/google/accounts.js";
import { adcFile } from "../../auth/google/adc.js";
import {
  DEFAULT_GOOGLE_ENDPOINTS,
  type GoogleEndpoints,
  googleClientFrom,
  googleEndpointsFromEnv,
} from "../../auth/google/config.js";
import type { GoogleAnalyticsConnector } from "../../connectors/google/connector.js";
import { AccountCalls, type GoogleCallsToday } from "../../connectors/google/usage.js";
import { positiveSetting } from "../../settings.js";
import type { ConnectionHandle, RoomContext } from "../types.js";

// Loaded when a workspace first builds a connector: listing tools (stdio cold start) needs none.
let googleModule: Promise<typeof import("../../connectors/google/connector.js")> | undefined;

/** A workspace's Google connection: its connected accounts, and a connector per account. */
export interface GoogleHandle extends ConnectionHandle<GoogleAnalyticsConnector> {
  readonly accounts: GoogleAccounts;
  readonly endpoints: GoogleEndpoints;
  /** The account's connector if one was built here (none is built just to look). */
  built(label: string): GoogleAnalyticsConnector | undefined;
  /** Calls sent through the account since 00:00 UTC, counted in the shared state by every replica. */
  callsToday(label: string): Promise<GoogleCallsToday>;
}

export function openGoogle(context: RoomContext): GoogleHandle {
  const env = context.env;
  const endpoints = googleEndpointsFromEnv(env);
  const accounts = new GoogleAccounts({
    store: context.store,
    workspace: context.workspace,
    endpoints,
    env,
    timeoutMs: positiveSetting(env, "MARTECH_STEPS_REQUEST_TIMEOUT_MS"),
    ...(context.fetch ? { fetch: context.fetch } : {}),
  });
  /** Per account label; rebuilt when the account's token source changes (reconnected elsewhere). */
  const usageScope = (label: string) => `${context.workspace}:${label}`;
  const kept = new Map<string, { tokens: GoogleTokenSource; connector: GoogleAnalyticsConnector }>();
  return {
    accounts,
    endpoints,
    forget: () => kept.clear(),
    built: (label) => kept.get(label)?.connector,
    callsToday: (label) => new AccountCalls(context.state, usageScope(label), Date.now).today(),
    async connector(label) {
      googleModule ??= import("../../connectors/google/connector.js");
      const [tokens, { GoogleAnalyticsConnector }] = await Promise.all([
        accounts.tokenSource(label),
        googleModule,
      ]);
      const cached = kept.get(tokens.label);
      // GoogleAccounts gives a new token source when the stored refresh token changed (the account was
      // reconnected, maybe by another process or replica): a connector on the old one would keep failing.
      if (cached?.tokens === tokens) return cached.connector;
      const connector = new GoogleAnalyticsConnector({
        tokens,
        endpoints,
        state: context.state,
        timeoutMs: positiveSetting(env, "MARTECH_STEPS_REQUEST_TIMEOUT_MS"),
        deadlineMs: positiveSetting(env, "MARTECH_STEPS_DEADLINE_MS"),
        usageScope: usageScope(tokens.label),
        ...(context.fetch ? { fetch: context.fetch } : {}),
      });
      kept.set(tokens.label, { tokens, connector });
      return connector;
    },
  };
}

/**
 * Google counts as configured only by what can reach the real Google: an OAuth client (environment or
 * store), an account imported with its own client (a gcloud authorized_user file), a service account
 * imported for Google's token endpoint, or GOOGLE_APPLICATION_CREDENTIALS. A stored account
 * without a client, such as a sandbox account imported while the sandbox's variables were exported,
 * cannot refresh against Google and must not stop the sandbox from being used. Here rather than in
 * configure.ts: every start asks it, while only the CLI and the console load the configure flow.
 */
export async function googleConfigured(
  context: Pick<RoomContext, "workspace" | "env" | "store">,
): Promise<boolean> {
  const secrets = await context.store.read(context.workspace);
  if (googleClientFrom(context.env, secrets)) return true;
  // GOOGLE_APPLICATION_CREDENTIALS is an account of the default workspace (src/auth/google/adc.ts).
  if (adcFile(context.env, context.workspace)) return true;
  // A service account needs no OAuth client, but only one whose key signs for Google's endpoint reaches it.
  return Object.values(secrets.googleAccounts).some(
    (account) =>
      account.client ||
      (account.serviceAccount && account.service?.oauthUrl === DEFAULT_GOOGLE_ENDPOINTS.oauthUrl),
  );
}
