/**
 * The registry of connection rooms: one line per service. Everything that needs the list of services
 * derives it from here (the workspace's connections, `ToolContext.connection(kind)`, manifest.json's
 * connections, the metrics' service label, `npm start`'s sandbox wiring, the console's cards), so that a
 * new service is a new room and a line here, not an edit of core types. See docs/ARCHITECTURE.md, "Checklist: adding a service".
 */
import { GOOGLE_ROOM } from "./google/index.js";
import { MARKETO_ROOM } from "./marketo/index.js";
import type { ConnectionDefinition, ConnectionHandle, ConnectionRoom, Emulator } from "./types.js";

export const CONNECTION_ROOMS = {
  marketo: MARKETO_ROOM,
  google: GOOGLE_ROOM,
} as const;

type Rooms = typeof CONNECTION_ROOMS;

/** The admin-side connection a step needs: a key of the registry ("marketo", "google"). */
export type ConnectionKind = keyof Rooms;
/** The service a step or a metric is labelled with ("marketo", "google_analytics"). */
export type ServiceId = Rooms[ConnectionKind]["service"];
/** A workspace's side of a kind's connection (its handle: credentials, accounts, connector cache). */
export type HandleOf<K extends ConnectionKind> = ReturnType<Rooms[K]["open"]>;
/** The connector a kind's steps get: `ctx.connection("marketo")` is a MarketoConnector. */
export type ConnectorOf<K extends ConnectionKind> = Awaited<ReturnType<HandleOf<K>["connector"]>>;
/** The running emulator of a kind's sandbox. */
export type EmulatorOf<K extends ConnectionKind> = Awaited<
  ReturnType<Awaited<ReturnType<NonNullable<Rooms[K]["sandbox"]>>>["start"]>
>;

/** Any room, seen without its kind-specific types. */
export type AnyRoom = ConnectionRoom<string, string, unknown, ConnectionHandle<unknown>, Emulator>;

// An error's `connection` (src/errors.ts, which imports nothing) is one of the registry's kinds.
declare module "../errors.js" {
  interface ErrorConnections extends Record<ConnectionKind, true> {}
}

/** The kind whose connected accounts are the steps' account choice (its handle holds `accounts`, its room says so). */
export type AccountsKind = {
  [K in ConnectionKind]: HandleOf<K> extends { accounts: object } ? K : never;
}[ConnectionKind];
/** That kind's accounts (`handle.accounts`). */
export type AccountsOf = HandleOf<AccountsKind>["accounts"];

/** The kinds in registry order (the order manifest.json and the console list them in). */
export const CONNECTION_KINDS = Object.keys(CONNECTION_ROOMS) as ConnectionKind[];

/** The service ids of the registry, in its order. */
export const SERVICE_IDS = CONNECTION_KINDS.map((kind) => CONNECTION_ROOMS[kind].service) as ServiceId[];

/**
 * The services of the registry named in one phrase of a message ("Marketo and Google Analytics"): each
 * room's label, or its product's full name, joined with "and" or "or" (commas before the last).
 */
export function servicesPhrase(conjunction: "and" | "or", name: "label" | "product" = "label"): string {
  const names = CONNECTION_KINDS.map((kind) => CONNECTION_ROOMS[kind][name]);
  const last = names.pop();
  return names.length === 0 ? (last ?? "") : `${names.join(", ")} ${conjunction} ${last}`;
}

/** The kind whose room holds the connected accounts (`accounts: true`), in registry order the first. */
export const ACCOUNTS_KIND = CONNECTION_KINDS.find(
  (kind) => (CONNECTION_ROOMS[kind] as AnyRoom).accounts,
) as AccountsKind;

export function connectionRoom<K extends ConnectionKind>(kind: K): Rooms[K] {
  return CONNECTION_ROOMS[kind];
}

export function isConnectionKind(value: string): value is ConnectionKind {
  return Object.hasOwn(CONNECTION_ROOMS, value);
}

/** manifest.json's connections, by kind. */
export const CONNECTIONS = Object.fromEntries(
  CONNECTION_KINDS.map((kind) => [kind, CONNECTION_ROOMS[kind].definition]),
) as { [K in ConnectionKind]: ConnectionDefinition<K> };
