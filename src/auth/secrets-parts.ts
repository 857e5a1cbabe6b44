/**
 * The rooms' parts of a workspace's stored document, as the credential stores apply them: one line per
 * room whose part has a default, a shape to check or a start-over command (Marketo's part is optional
 * and has only the last). The stores (store-core.ts, sealed.ts) iterate this list and name no service; a room's part lives
 * in its own auth folder (src/auth/<service>/stored.ts). This list is the auth floor's registry of rooms,
 * below src/connections/registry.ts, which the store may not import.
 */
import { GOOGLE_SECRETS_PART } from "./google/stored.js";
import { MARKETO_SECRETS_PART } from "./marketo/stored.js";
import type { SecretsPart } from "./secrets-document.js";

export type { SecretsPart } from "./secrets-document.js";

export const SECRETS_PARTS: readonly SecretsPart[] = [MARKETO_SECRETS_PART, GOOGLE_SECRETS_PART];
