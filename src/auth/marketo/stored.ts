/**
 * The Marketo room's part of a workspace's stored document, on the auth floor: optional, so it has no
 * default and no shape to check; what it adds is the command that writes it over a store that cannot be
 * opened (the start-over a StoreUnreadableError offers). Its type merging into WorkspaceSecrets is in
 * src/connections/marketo/secrets.ts.
 */
import type { SecretsPart } from "../secrets-document.js";

export const MARKETO_SECRETS_PART: SecretsPart = {
  empty: () => ({}),
  valid: () => true,
  opened: (secrets) => secrets,
  startOver: (flag) => `martech-steps marketo configure --force${flag} (or marketo remove${flag})`,
};
