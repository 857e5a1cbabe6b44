/**
 * The integrations page's Google card: the OAuth client (its secret write-only) and the connected
 * accounts. "Connect a Google account" is in google-connect.ts.
 */
import {
  environmentGoogleClient,
  readOnlyAccount,
  removeGoogleClient as removeClient,
  saveGoogleClient as saveClient,
  savedGoogleClient,
} from "../connections/google/configure.js";
import { CONNECTIONS } from "../connections/registry.js";
import type { Workspace } from "../workspace.js";
import { secretOrSaved, stringField } from "./http-util.js";

/** What the page may know about the Google connection: never a secret or a token. */
export async function googleStatus(workspace: Workspace, env: NodeJS.ProcessEnv, sandbox: boolean) {
  const client = await environmentGoogleClient({ ...workspace.context, env });
  const saved = await savedGoogleClient(workspace.secrets);
  const accounts = await workspace.accounts.list();
  return {
    fields: CONNECTIONS.google.fields,
    client: client
      ? { source: "environment", sandbox, clientId: client.clientId, secretSet: true }
      : saved
        ? {
            source: "store",
            sandbox: false,
            clientId: saved.clientId,
            secretSet: Boolean(saved.clientSecret),
          }
        : null,
    accounts: accounts.map((account) => ({
      ...account,
      readOnly: readOnlyAccount(account.scopes),
    })),
  };
}

/** Saves the workspace's OAuth client; an empty secret keeps the saved one for the same Client ID. */
export async function saveGoogleClient(workspace: Workspace, body: Record<string, unknown>): Promise<void> {
  const clientId = stringField(body, "clientId", true) as string;
  const saved = await savedGoogleClient(workspace.secrets);
  const clientSecret = secretOrSaved(
    body,
    saved && {
      clientSecret: saved.clientSecret,
      bindings: [{ field: "clientId", label: "Client ID", sent: clientId, saved: saved.clientId }],
    },
    "client secret of this OAuth client",
    "Copy it from the Google Cloud console > APIs & Services > Credentials > (your Desktop app client).",
  );
  await saveClient(workspace.secrets, { clientId, clientSecret });
}

export async function removeGoogleClient(workspace: Workspace): Promise<void> {
  await removeClient(workspace.secrets);
}
