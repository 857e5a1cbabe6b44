import { SCOPE_ANALYTICS_EDIT, SCOPE_ANALYTICS_READONLY } from "../../auth/google/config.js";
import type { ConnectionDefinition } from "../types.js";

/** manifest.json's Google connection: the OAuth client accounts are connected with. */
export const GOOGLE_DEFINITION: ConnectionDefinition<"google"> = {
  id: "google",
  title: "Google Analytics 4 (connected Google accounts)",
  auth: "oauth2_authorization_code",
  description:
    "Google accounts connected by OAuth (authorization code with PKCE); several per workspace, chosen per step. " +
    "The OAuth client is a Desktop app client of a Google Cloud project with the Analytics Data and Admin APIs enabled.",
  scopes: [SCOPE_ANALYTICS_READONLY, SCOPE_ANALYTICS_EDIT],
  fields: [
    {
      key: "clientId",
      label: "OAuth Client ID",
      type: "string",
      required: true,
      secret: false,
      env: "GOOGLE_OAUTH_CLIENT_ID",
      description: "Client ID of the Google OAuth client (Desktop app).",
    },
    {
      key: "clientSecret",
      label: "OAuth Client Secret",
      type: "string",
      required: true,
      secret: true,
      env: "GOOGLE_OAUTH_CLIENT_SECRET",
      description: "Client secret of the Google OAuth client; stored encrypted and never shown.",
    },
  ],
};
