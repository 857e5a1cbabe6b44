import type { ConnectionDefinition } from "../types.js";

/** manifest.json's Marketo connection: the three fields of the spec's configuration form. */
export const MARKETO_DEFINITION: ConnectionDefinition<"marketo"> = {
  id: "marketo",
  title: "Adobe Marketo Engage",
  auth: "oauth2_client_credentials",
  description:
    "A LaunchPoint custom service bound to an API-only user (Admin > Integration > LaunchPoint); the REST API " +
    "Endpoint is under Admin > Integration > Web Services.",
  fields: [
    {
      key: "clientId",
      label: "Client ID",
      type: "string",
      required: true,
      secret: false,
      env: "MARKETO_CLIENT_ID",
      description: "Client ID of the custom service.",
    },
    {
      key: "clientSecret",
      label: "Client Secret",
      type: "string",
      required: true,
      secret: true,
      env: "MARKETO_CLIENT_SECRET",
      description: "Client Secret of the custom service; stored encrypted and never shown.",
    },
    {
      key: "restEndpoint",
      label: "REST API Endpoint",
      type: "url",
      required: true,
      secret: false,
      env: "MARKETO_REST_ENDPOINT",
      description: "e.g. https://123-ABC-456.mktorest.com/rest (with or without /rest).",
    },
  ],
};
