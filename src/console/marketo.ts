/**
 * The integrations page's Marketo card: the manifest's three connection fields, saved only after
 * Marketo accepted them with one token request (as `martech-steps marketo configure` does). The
 * Client Secret is write-only: the page learns only whether one is set.
 */
import {
  configureMarketo,
  parseRestEndpoint,
  removeMarketo as removeConnection,
  savedMarketo,
  savedOrigin,
  testMarketo as testConnection,
} from "../connections/marketo/configure.js";
import { CONNECTIONS } from "../connections/registry.js";
import { isMartechError } from "../errors.js";
import type { Workspace } from "../workspace.js";
import { requiredFields, secretOrSaved } from "./http-util.js";

/** What the page may know about the Marketo connection: never the secret. */
export async function marketoStatus(workspace: Workspace, sandbox: boolean) {
  const marketo = workspace.handle("marketo");
  const active = await marketo.credentials();
  const stored = await savedMarketo(workspace.secrets);
  let usage: Awaited<ReturnType<Awaited<ReturnType<typeof marketo.connector>>["usage"]>> | undefined;
  let problem: string | undefined;
  if (active) {
    try {
      usage = await (await marketo.connector()).usage();
    } catch (error) {
      // A MartechError says what to fix (an endpoint that does not parse); anything else is not shown.
      problem = isMartechError(error) ? error.message : "The usage could not be read.";
    }
  }
  return {
    fields: CONNECTIONS.marketo.fields,
    // Environment variables win over what is saved here (and name the built-in sandbox on `npm start`).
    active: active
      ? {
          source: active.source,
          sandbox: sandbox && active.source === "environment",
          clientId: active.clientId,
          restEndpoint: active.restEndpoint,
          secretSet: active.clientSecret !== "",
        }
      : null,
    saved: stored
      ? {
          clientId: stored.clientId,
          restEndpoint: stored.restEndpoint,
          secretSet: stored.clientSecret !== "",
        }
      : null,
    usage: usage ?? null,
    problem: problem ?? null,
  };
}

/**
 * Saves the connection after one token request proves it (identity calls do not count against the
 * API quota). An empty secret keeps the saved one only for the same Client ID and the same Marketo
 * host: the saved secret is never sent anywhere it was not saved for.
 */
export async function saveMarketo(workspace: Workspace, body: Record<string, unknown>): Promise<void> {
  const saved = await savedMarketo(workspace.secrets);
  // Labels as the Integrations page shows them, every missing one at once; with a secret saved, an empty
  // Client Secret keeps it (secretOrSaved checks that the Client ID and endpoint are still the same).
  const fields = requiredFields(body, {
    clientId: "Client ID",
    restEndpoint: "REST API Endpoint",
    ...(saved?.clientSecret ? {} : { clientSecret: "Client Secret" }),
  });
  const clientId = fields.clientId as string;
  const origin = parseRestEndpoint(fields.restEndpoint as string);
  const clientSecret = secretOrSaved(
    body,
    saved && {
      clientSecret: saved.clientSecret,
      bindings: [
        { field: "clientId", label: "Client ID", sent: clientId, saved: saved.clientId },
        {
          field: "restEndpoint",
          label: "REST API Endpoint",
          sent: origin.origin,
          saved: savedOrigin(saved.restEndpoint),
        },
      ],
    },
    "Client Secret",
    "Copy it from Marketo Admin > Integration > LaunchPoint > (your custom service) > View Details.",
  );
  await configureMarketo(workspace.secrets, { clientId, clientSecret, origin }, { verify: true });
}

/** Asks Marketo for a token with the active connection: proves the credentials without spending quota. */
export function testMarketo(workspace: Workspace): Promise<{ message: string }> {
  return testConnection(
    workspace.context,
    "Enter the Client ID, Client Secret and REST API Endpoint, then Save.",
  );
}

export async function removeMarketo(workspace: Workspace): Promise<void> {
  await removeConnection(workspace.secrets);
}
