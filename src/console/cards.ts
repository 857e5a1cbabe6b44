/**
 * The console's cards, one line per connection room that has one, keyed by the room's kind: each card's
 * handlers live in its own module (src/console/<service>.ts, calling the room's configure.ts). A card is
 * console code, which the connection registry (src/connections/registry.ts) sits below and may not import,
 * so this is the console's registry of the rooms' cards, as src/auth/secrets-parts.ts is the auth floor's
 * of their stored parts; routes.ts' consoleCards asks it for each room in the registry's order. The page's
 * own list of cards is console/src/Integrations.tsx' CONNECTION_CARDS.
 */
import type { ConnectionKind } from "../connections/registry.js";
import type { ConsoleCard, ConsoleDeps } from "./api-context.js";
import { googleCard } from "./google.js";
import { MARKETO_CARD } from "./marketo.js";

/** A room's card, built once per console (a card may hold state, e.g. sign-ins under way). */
export type CardOf = (deps: ConsoleDeps) => ConsoleCard;

export const CONSOLE_CARDS: { readonly [K in ConnectionKind]?: CardOf } = {
  marketo: () => MARKETO_CARD,
  google: (deps) => googleCard(deps.now),
};
