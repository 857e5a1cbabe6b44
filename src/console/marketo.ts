/**
 * The integrations page's Marketo card: the manifest's three connection fields, saved only after
 * Marketo accepted them with one token request (as `martech-steps marketo configure` does). The
 * Client Secret is write-only: the page learns only whether one is set.
 */
import { requestMarketoToken } from "../auth/marketo-token.js";
import { parseRestEndpoint } from "../connectors/marketo/url.js";
import { ConfigurationError, isMartechError } from "../errors.js";
import { CONNECTIONS } from "../manifest.js";
import type { Workspace } from "../workspace.js";
import { secretOrSaved, stringField } from "./http-util.js";

/** What the page may know about the Marketo connection: never the secret. */
export async function marketoStatus(workspace: Workspace, sandbox: boolean) {
  const active = await workspace.marketoCredentials();
  const stored = (await workspace.store.read(workspace.name)).marketo;
  let usage: Awaited<ReturnType<Awaited<ReturnType<Workspace["marketo"]>>["usage"]>> | undefined;
  let problem: string | undefined;
  if (active) {
    try {
      usage = await (await workspace.marketo()).usage();
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

/** The origin a saved REST endpoint sends the secret to, or "" when the saved value no longer parses. */
function savedOrigin(restEndpoint: string): string {
  try {
    return parseRestEndpoint(restEndpoint).origin;
  } catch {
    return "";
  }
}

/**
 * Saves the connection after one token request proves it (identity calls do not count against the
 * API quota). An empty secret keeps the saved one only for the same Client ID and the same Marketo
 * host: the saved secret is never sent anywhere it was not saved for.
 */
export async function saveMarketo(workspace: Workspace, body: Record<string, unknown>): Promise<void> {
  const clientId = stringField(body, "clientId", true) as string;
  const restEndpointRaw = stringField(body, "restEndpoint", true) as string;
  const origin = parseRestEndpoint(restEndpointRaw);
  const saved = (await workspace.store.read(workspace.name)).marketo;
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
  await requestMarketoToken({ origin, clientId, clientSecret });
  await workspace.store.update(workspace.name, (current) => ({
    ...current,
    marketo: { clientId, clientSecret, restEndpoint: `${origin.origin}/rest` },
  }));
}

/** Asks Marketo for a token with the active connection: proves the credentials without spending quota. */
export async function testMarketo(workspace: Workspace): Promise<{ message: string }> {
  const active = await workspace.marketoCredentials();
  if (!active) {
    throw new ConfigurationError(`Marketo is not configured for workspace "${workspace.name}".`, {
      hint: "Enter the Client ID, Client Secret and REST API Endpoint, then Save.",
    });
  }
  const origin = parseRestEndpoint(active.restEndpoint);
  const token = await requestMarketoToken({
    origin,
    clientId: active.clientId,
    clientSecret: active.clientSecret,
  });
  return {
    message: `Marketo at ${origin.host} accepted the credentials (a token valid for ${token.expiresIn} s was issued).`,
  };
}

export async function removeMarketo(workspace: Workspace): Promise<void> {
  await workspace.store.update(workspace.name, (current) => ({ ...current, marketo: undefined }));
}
