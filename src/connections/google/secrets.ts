/** The Google room's part of a workspace's stored secrets (merged into WorkspaceSecrets). */
import type { GoogleAccountRecord, GoogleOAuthClient } from "../../auth/google/stored.js";

declare module "../../auth/secrets-document.js" {
  interface WorkspaceSecrets {
    /** The OAuth client (Desktop app) accounts are connected with. */
    googleClient?: GoogleOAuthClient | undefined;
    /** The connected accounts, by label. */
    googleAccounts: Record<string, GoogleAccountRecord>;
  }
}
