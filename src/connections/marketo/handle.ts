import type { MarketoConnector, MarketoConnectorConfig } from "../../connectors/marketo/connector.js";
import { positiveSetting } from "../../settings.js";
import type { ConnectionHandle, RoomContext } from "../types.js";
import {
  type ActiveMarketo,
  checkEnvEndpoint,
  marketoNotConfigured,
  readMarketoCredentials,
} from "./credentials.js";

// The connector loads when a workspace first builds one: listing tools (stdio cold start, measured by
// the bench) needs none. Awaited before the cache check below, so that concurrent first calls still
// build one connector (and make one token request).
let marketoModule: Promise<typeof import("../../connectors/marketo/connector.js")> | undefined;

/** A workspace's Marketo connection: its credentials, and the connector kept while they hold. */
export interface MarketoHandle extends ConnectionHandle<MarketoConnector> {
  credentials(): Promise<ActiveMarketo | undefined>;
}

function connectorConfig(credentials: ActiveMarketo, env: NodeJS.ProcessEnv): MarketoConnectorConfig {
  return {
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret,
    restEndpoint: credentials.restEndpoint,
    dailyQuota: positiveSetting(env, "MARKETO_DAILY_QUOTA"),
    callsPerWindow: positiveSetting(env, "MARKETO_CALLS_PER_WINDOW"),
    windowMs: positiveSetting(env, "MARKETO_WINDOW_MS"),
    maxConcurrent: positiveSetting(env, "MARKETO_MAX_CONCURRENT"),
    timeoutMs: positiveSetting(env, "MARTECH_STEPS_REQUEST_TIMEOUT_MS"),
    deadlineMs: positiveSetting(env, "MARTECH_STEPS_DEADLINE_MS"),
  };
}

export function openMarketo(context: RoomContext): MarketoHandle {
  let kept: { key: string; connector: MarketoConnector } | undefined;
  const credentials = () => readMarketoCredentials(context);
  return {
    credentials,
    forget: () => {
      kept = undefined;
    },
    async connector() {
      const active = await credentials();
      if (!active) throw marketoNotConfigured(context);
      // Rebuild when an admin changed the credentials; otherwise keep the connector (and its token). The
      // endpoint is part of the key, so a kept connector's endpoint has been checked: every tool call
      // comes here, and parsing it again cost more than the rest of this method.
      const key = JSON.stringify([active.clientId, active.clientSecret, active.restEndpoint]);
      if (kept?.key === key) return kept.connector;
      if (active.source === "environment") checkEnvEndpoint(active.restEndpoint);
      const config = connectorConfig(active, context.env);
      marketoModule ??= import("../../connectors/marketo/connector.js");
      const { MarketoConnector } = await marketoModule;
      // Checked again after the await: concurrent first calls that all waited for the module share one
      // connector (and one token request).
      if (kept?.key !== key) {
        const deps = { state: context.state, ...(context.fetch ? { fetch: context.fetch } : {}) };
        kept = { key, connector: new MarketoConnector(config, deps) };
      }
      return kept.connector;
    },
  };
}
