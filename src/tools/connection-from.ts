import type { ConnectionKind, ConnectorOf } from "../connections/registry.js";
import { ConfigurationError } from "../errors.js";
import type { ToolContext } from "./types.js";

/** A connector maker per kind, as a host that builds its own ToolContext (a plugin platform, a test) has them. */
export type ConnectorMakers = {
  [K in ConnectionKind]?: (account?: string) => Promise<ConnectorOf<K>>;
};

/**
 * `ToolContext.connection` from one maker per kind: `connectionFrom({ marketo: async () => connector })`.
 * A kind without a maker is not configured in that context.
 */
export function connectionFrom(makers: ConnectorMakers): ToolContext["connection"] {
  return <K extends ConnectionKind>(kind: K, account?: string): Promise<ConnectorOf<K>> => {
    const make = makers[kind] as ((account?: string) => Promise<ConnectorOf<K>>) | undefined;
    if (!make) return Promise.reject(new ConfigurationError(`No ${kind} connection is configured here.`));
    return make(account);
  };
}
