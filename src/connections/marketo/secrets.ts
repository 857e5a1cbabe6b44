/** The Marketo room's part of a workspace's stored secrets (merged into WorkspaceSecrets). */

/** Marketo connection of a workspace (the three fields of the spec's configuration form). */
export interface MarketoCredentials {
  clientId: string;
  clientSecret: string;
  restEndpoint: string;
}

declare module "../../auth/secrets-document.js" {
  interface WorkspaceSecrets {
    marketo?: MarketoCredentials | undefined;
  }
}
