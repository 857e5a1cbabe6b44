/**
 * The integrations page's Google card: the OAuth client (its secret write-only) and the connected
 * accounts. "Connect a Google account" is in google-connect.ts.
 */

import type { AccountSummary } from "../auth/google/accounts.js";
import {
  environmentGoogleClient,
  readOnlyAccount,
  removeGoogleClient as removeClient,
  saveGoogleClient as saveClient,
  savedGoogleClient,
} from "../connections/google/configure.js";
import { CONNECTIONS } from "../connections/registry.js";
import { isMartechError } from "../errors.js";
import { answered } from "../web/node-bridge.js";
import type { Workspace } from "../workspace.js";
import { type ConsoleCard, type ConsoleContext, notMine, ok } from "./api-context.js";
import { CALLBACK_PATH, GoogleConnects } from "./google-connect.js";
import {
  analyticsChoices,
  dimensionValues,
  type EventPeriod,
  propertyEvents,
  propertyFields,
} from "./google-pickers.js";
import { decodedPart, readJson, secretOrSaved, stringField } from "./http-util.js";
import type { LastTest } from "./marketo.js";

/** How an account was connected, in the card's words (src/auth/google/accounts.ts: the three kinds of credential). */
function connectedBy(account: AccountSummary): string {
  if (account.sandbox) return "the sandbox's sign-in (held by this server only)";
  if (account.from) return `application default credentials (${account.from})`;
  if (account.serviceAccount) return `service account ${account.serviceAccount}`;
  return "Google sign-in (OAuth refresh token)";
}

/** The hosts the workspace's Google connection talks to: the sandbox's loopback, or Google's APIs. */
function hostsOf(workspace: Workspace): string[] {
  const { dataApiUrl, adminApiUrl } = workspace.handle("google").endpoints;
  return [...new Set([new URL(adminApiUrl).host, new URL(dataApiUrl).host])];
}

/** Each account's last Test (this server's memory: it restarts empty), per workspace. */
const lastTests = new WeakMap<Workspace, Map<string, LastTest>>();

/**
 * Which credential a Test was of: its label and when it was stored. Another credential stored under the
 * same label later (removed and connected again, another account imported, the same account reconnected
 * after its token died) has no last Test until it is tested.
 */
const testKey = (account: Pick<AccountSummary, "label" | "addedAt">): string =>
  `${account.label}\n${account.addedAt}`;

/** What the page may know about the Google connection: never a secret or a token. */
export async function googleStatus(workspace: Workspace, env: NodeJS.ProcessEnv, sandbox: boolean) {
  const client = await environmentGoogleClient({ ...workspace.context, env });
  const saved = await savedGoogleClient(workspace.secrets);
  const accounts = await workspace.accounts.list();
  const handle = workspace.handle("google");
  const calls = await Promise.all(accounts.map((account) => handle.callsToday(account.label)));
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
    hosts: hostsOf(workspace),
    accounts: accounts.map((account, index) => ({
      ...account,
      readOnly: readOnlyAccount(account.scopes),
      connectedBy: connectedBy(account),
      lastTest: lastTests.get(workspace)?.get(testKey(account)) ?? null,
      callsToday: calls[index],
      // Held by this process's connector only (a replica that ran no report for it shows none).
      quotasSeen: handle.built(account.label)?.quotasSeen() ?? [],
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

/**
 * Test of a saved account: its token refreshed (the cached access token dropped first, so a refresh
 * request, or a service account's signed grant, really goes to the token endpoint) and one
 * accountSummaries.list page read with it
 * (https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1beta/accountSummaries/list).
 * The outcome is remembered for the card.
 */
export async function testGoogleAccount(
  workspace: Workspace,
  label: string,
): Promise<{ message: string; lastTest: LastTest }> {
  // The credential under test, as it was when the Test began.
  const tested = (await workspace.accounts.list()).find((account) => account.label === label);
  const remember = (lastTest: LastTest) => {
    if (!tested) return lastTest;
    const tests = lastTests.get(workspace) ?? new Map<string, LastTest>();
    tests.set(testKey(tested), lastTest);
    lastTests.set(workspace, tests);
    return lastTest;
  };
  try {
    const tokens = await workspace.accounts.tokenSource(label);
    tokens.invalidate(await tokens.getToken());
    const refreshes = tokens.tokenRequests();
    const ga = await workspace.connection("google", label);
    const { items } = await ga.listAll<unknown>(
      "v1beta/accountSummaries",
      "accountSummaries",
      { pageSize: 200 },
      { maxPages: 1 },
    );
    const refreshed = tokens.tokenRequests() > refreshes ? "refreshed its token and " : "";
    const count = items.length === 1 ? "1 Analytics account" : `${items.length} Analytics accounts`;
    const message = `Google ${refreshed}listed ${count} that "${label}" can see (${hostsOf(workspace).join(", ")}).`;
    return { message, lastTest: remember({ at: new Date().toISOString(), ok: true, message }) };
  } catch (error) {
    // An unknown label is no test of a connection.
    if (isMartechError(error) && error.code !== "invalid_input" && error.code !== "not_found")
      remember({ at: new Date().toISOString(), ok: false, message: error.message });
    throw error;
  }
}

/**
 * The card's API (the OAuth client, "Connect a Google account", each account's Test and Remove, and the
 * step forms' pickers) and Google's way back to the page after a sign-in.
 */
export function googleCard(now: () => number): ConsoleCard {
  const connects = new GoogleConnects(now);
  return {
    pages(app, deps) {
      app.get(CALLBACK_PATH, async (c) => {
        // hono answers HEAD with the GET route: a HEAD (a link checker's) must not spend the sign-in.
        if (c.env.incoming.method !== "GET") return notMine(c);
        await connects.callback(c.env.incoming, c.env.outgoing, c.env.url, deps.sessions);
        return answered(c);
      });
    },
    api(app, deps) {
      const status = async (c: ConsoleContext) =>
        googleStatus(c.var.workspace, deps.env, Boolean(deps.sandbox.google));
      app.get("/console/api/google", async (c) => ok(c, await status(c)));
      app.post("/console/api/google/client", async (c) => {
        await saveGoogleClient(c.var.workspace, await readJson(c.env.incoming));
        return ok(c, await status(c));
      });
      app.delete("/console/api/google/client", async (c) => {
        await removeGoogleClient(c.var.workspace);
        return ok(c, await status(c));
      });
      app.post("/console/api/google/connect", async (c) => {
        const label = stringField(await readJson(c.env.incoming), "label", false);
        const { incoming, outgoing } = c.env;
        return ok(
          c,
          await connects.begin(incoming, outgoing, c.var.session, c.var.workspace, c.var.origin, label),
        );
      });
      pickerRoutes(app);
      app.post("/console/api/google/accounts/:label/test", async (c) => {
        const raw = c.env.url.pathname.slice("/console/api/google/accounts/".length, -"/test".length);
        return ok(c, await testGoogleAccount(c.var.workspace, decodedPart(raw, "label")));
      });
      app.delete("/console/api/google/accounts/:label", async (c) => {
        const label = decodedPart(c.env.url.pathname.slice("/console/api/google/accounts/".length), "label");
        const outcome = await c.var.workspace.removeAccount(label);
        return ok(c, { ...outcome, ...(await status(c)) });
      });
    },
  };
}

/** The step forms' pickers: ?account= names the connected Google account (the only one when left out). */
function pickerRoutes(app: Parameters<ConsoleCard["api"]>[0]): void {
  const account = (c: ConsoleContext) => c.env.url.searchParams.get("account")?.slice(0, 200) || undefined;
  app.get("/console/api/google/summaries", async (c) =>
    ok(c, await analyticsChoices(c.var.workspace, account(c))),
  );
  app.get("/console/api/google/metadata", async (c) => {
    const property = c.env.url.searchParams.get("property") ?? "";
    return ok(c, await propertyFields(c.var.workspace, account(c), property.slice(0, 500)));
  });
  const property = (c: ConsoleContext) => (c.env.url.searchParams.get("property") ?? "").slice(0, 500);
  // A funnel's steps: ?period= a preset, or ?start=&end= dates (Run Reports checks either).
  app.get("/console/api/google/events", async (c) =>
    ok(c, await propertyEvents(c.var.workspace, account(c), property(c), periodOf(c))),
  );
  // A filter condition's values: ?dimension= its API name, over the report's first period.
  app.get("/console/api/google/values", async (c) => {
    const dimension = (c.env.url.searchParams.get("dimension") ?? "").slice(0, 200);
    const ask = { property: property(c), dimension, period: periodOf(c) };
    return ok(c, await dimensionValues(c.var.workspace, account(c), ask));
  });
}

/** The period a picker's list counts over: ?period= a preset (28 days unless named), or ?start=&end=. */
function periodOf(c: ConsoleContext): EventPeriod {
  const query = c.env.url.searchParams;
  const [start, end] = [query.get("start"), query.get("end")];
  return start && end
    ? { start: start.slice(0, 20), end: end.slice(0, 20) }
    : { preset: (query.get("period") ?? "last28days").slice(0, 20) };
}
