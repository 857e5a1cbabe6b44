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
  tokenDetail,
  verifyMarketo,
} from "../connections/marketo/configure.js";
import type { MarketoCredentials } from "../connections/marketo/secrets.js";
import { CONNECTIONS } from "../connections/registry.js";
import type { CallRecord } from "../connectors/marketo/types.js";
import { isMartechError } from "../errors.js";
import type { Workspace } from "../workspace.js";
import type { ConsoleCard, ConsoleContext } from "./api-context.js";
import { ok } from "./api-context.js";
import { readJson, requiredFields, secretOrSaved } from "./http-util.js";

/** What the page may know about the Marketo connection: never the secret. */
export async function marketoStatus(workspace: Workspace, sandbox: boolean) {
  const marketo = workspace.handle("marketo");
  const active = await marketo.credentials();
  const stored = await savedMarketo(workspace.secrets);
  let usage: Awaited<ReturnType<Awaited<ReturnType<typeof marketo.connector>>["usage"]>> | undefined;
  let problem: string | undefined;
  let calls: CallRecord | undefined;
  if (active) {
    try {
      const connector = await marketo.connector();
      calls = connector.calls();
      usage = await connector.usage();
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
    lastTest: lastTests.get(workspace) ?? null,
    // The calls answered since this server started, and how the last went (the card's chip and line).
    calls: calls ?? null,
  };
}

/** The last Test of a workspace's connection, as the card shows it (this server's memory: it restarts empty). */
export interface LastTest {
  at: string;
  ok: boolean;
  message: string;
}
const lastTests = new WeakMap<Workspace, LastTest>();

/** The values the form sends, every missing one named at once, with the saved secret standing in where bound. */
async function typedValues(
  workspace: Workspace,
  body: Record<string, unknown>,
  secretHint: string,
): Promise<{ clientId: string; clientSecret: string; origin: URL; saved: MarketoCredentials | undefined }> {
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
    secretHint,
  );
  return { clientId, clientSecret, origin, saved };
}

/**
 * Saves the connection after one token request proves it (identity calls do not count against the
 * API quota). An empty secret keeps the saved one only for the same Client ID and the same Marketo
 * host: the saved secret is never sent anywhere it was not saved for.
 */
export async function saveMarketo(workspace: Workspace, body: Record<string, unknown>): Promise<void> {
  const { clientId, clientSecret, origin } = await typedValues(
    workspace,
    body,
    "Copy it from Marketo Admin > Integration > LaunchPoint > (your custom service) > View Details.",
  );
  await configureMarketo(workspace.secrets, { clientId, clientSecret, origin }, { verify: true });
}

const FIELDS = ["clientId", "clientSecret", "restEndpoint"] as const;

/**
 * Test: one token request (no quota spent) with the values the form sends, the saved secret standing in
 * for an empty secret field only for the Client ID and host it was saved with; with no values at all,
 * the connection in force (saved, environment or sandbox). The outcome is remembered for the card.
 */
export async function testMarketo(
  workspace: Workspace,
  body: Record<string, unknown> = {},
  sandbox = false,
): Promise<{ message: string; detail: string; lastTest: LastTest }> {
  const typed = FIELDS.some((field) => {
    const value = body[field];
    return typeof value === "string" && value.trim() !== "";
  });
  try {
    const tested = typed
      ? await testTyped(workspace, body)
      : await testConnection(
          workspace.context,
          "Enter the Client ID, Client Secret and REST API Endpoint, then Save.",
        );
    const { detail } = tested;
    // On the sandbox the connection in force is its own (environment), not what the form's empty boxes
    // hold: "accepted the credentials" beside a Client Secret "not set" read as a contradiction (review s9, 9).
    const message =
      sandbox && !typed
        ? "The built-in sandbox answered as Marketo would: its own credentials work (none of yours are used)."
        : tested.message;
    const lastTest = { at: new Date().toISOString(), ok: true, message };
    lastTests.set(workspace, lastTest);
    return { message, detail, lastTest };
  } catch (error) {
    // A refused input (a missing field) is no test of the connection.
    if (isMartechError(error) && error.code !== "invalid_input")
      lastTests.set(workspace, { at: new Date().toISOString(), ok: false, message: error.message });
    throw error;
  }
}

async function testTyped(
  workspace: Workspace,
  body: Record<string, unknown>,
): Promise<{ message: string; detail: string }> {
  const { clientId, clientSecret, origin, saved } = await typedValues(
    workspace,
    body,
    "Type the Client Secret to test these values.",
  );
  const token = await verifyMarketo({ origin, clientId, clientSecret });
  const same =
    saved?.clientId === clientId &&
    savedOrigin(saved.restEndpoint) === origin.origin &&
    saved.clientSecret === clientSecret;
  return {
    message: `Marketo at ${origin.host} accepted ${same ? "the saved credentials" : "these credentials (not saved yet: Save keeps them)"}.`,
    detail: tokenDetail(token.expiresIn),
  };
}

export async function removeMarketo(workspace: Workspace): Promise<void> {
  await removeConnection(workspace.secrets);
}

/** The card's API: the connection's status, Save, Remove and Test. */
export const MARKETO_CARD: ConsoleCard = {
  api(app, deps) {
    const status = async (c: ConsoleContext) =>
      ok(c, await marketoStatus(c.var.workspace, Boolean(deps.sandbox.marketo)));
    app.get("/console/api/marketo", status);
    app.post("/console/api/marketo", async (c) => {
      await saveMarketo(c.var.workspace, await readJson(c.env.incoming));
      return status(c);
    });
    app.delete("/console/api/marketo", async (c) => {
      await removeMarketo(c.var.workspace);
      return status(c);
    });
    app.post("/console/api/marketo/test", async (c) =>
      // No body (an older page, a script): the connection in force is tested.
      ok(
        c,
        await testMarketo(
          c.var.workspace,
          c.env.incoming.headers["content-type"] ? await readJson(c.env.incoming) : {},
          Boolean(deps.sandbox.marketo),
        ),
      ),
    );
  },
};
