import { expect } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import {
  type GoogleSandbox,
  type MarketoSandbox,
  SANDBOX_GOOGLE_USER,
  sandboxEnv,
  startGoogleSandbox,
  startMarketoSandbox,
} from "../../src/sandbox/index.js";
import { MemoryState } from "../../src/state/memory.js";
import { TOOL_STEPS } from "../../src/tools/registry.js";
import { Workspace, type WorkspaceOptions } from "../../src/workspace.js";
import { CANARY_SECRET } from "./fixtures.js";

/** What any MCP client (SDK v1 or v2) returns for a tool call, as far as these tests read it. */
export interface CallResult {
  isError?: boolean;
  content?: unknown;
  structuredContent?: unknown;
}
export type CallTool = (name: string, args: Record<string, unknown>) => Promise<CallResult>;

export interface Sandboxes {
  marketo: MarketoSandbox;
  google: GoogleSandbox;
  /** The environment that points a workspace (or the CLI) at both sandboxes. */
  env: Record<string, string>;
  /** A refresh token of the sandbox's Google user, to connect as account "analyst". */
  refreshToken(): string;
  close(): Promise<void>;
}

/** Both sandboxes; Marketo's client secret is the canary. */
export async function startSandboxes(): Promise<Sandboxes> {
  const marketo = await startMarketoSandbox({ clientSecret: CANARY_SECRET });
  const google = await startGoogleSandbox();
  return {
    marketo,
    google,
    env: sandboxEnv({ marketo, google }),
    refreshToken: () => google.issueRefreshToken(SANDBOX_GOOGLE_USER),
    close: async () => {
      await marketo.close();
      await google.close();
    },
  };
}

/** A workspace on both sandboxes with Google account "analyst" connected. */
export async function sandboxWorkspace(
  sandboxes: Sandboxes,
  options: Partial<WorkspaceOptions> = {},
): Promise<Workspace> {
  const workspace = new Workspace({
    env: sandboxes.env,
    store: new MemoryCredentialStore(),
    state: new MemoryState(),
    ...options,
  });
  await workspace.accounts.importAccount({ label: "analyst", refreshToken: sandboxes.refreshToken() });
  return workspace;
}

const text = (result: CallResult) => JSON.stringify(result.content);

/** The tool list is the registry's, in its order. */
export function expectRegistryTools(tools: readonly { name: string }[]): void {
  expect(tools.map((tool) => tool.name)).toEqual(TOOL_STEPS.map((step) => step.id));
}

/**
 * Calls each of the five tool steps once, successfully, against the sandboxes: a Marketo lead lookup,
 * GA4 account summaries (to find a property), a report, a key event for a collected event, a property.
 */
export async function callAllFive(call: CallTool): Promise<void> {
  const leads = await call("marketo_api_call", {
    method: "GET",
    endpoint: "/rest/v1/leads.json",
    query_parameters: { filterType: "id", filterValues: "1,2,3" },
  });
  expect(leads.isError, text(leads)).toBeFalsy();
  expect((leads.structuredContent as { result: unknown[] }).result).toHaveLength(3);

  const summaries = await call("google_analytics_api_call", {
    method: "GET",
    endpoint: "v1beta/accountSummaries",
  });
  expect(summaries.isError, text(summaries)).toBeFalsy();
  const body = (
    summaries.structuredContent as {
      body: { accountSummaries: { account: string; propertySummaries?: { property: string }[] }[] };
    }
  ).body;
  const withProperties = body.accountSummaries.find((s) => (s.propertySummaries ?? []).length > 0)!;
  const property = withProperties.propertySummaries![0]!.property;

  const report = await call("google_analytics_run_reports", {
    property,
    metrics: ["eventCount"],
    dimensions: ["eventName"],
    date_ranges: ["last30days"],
  });
  expect(report.isError, text(report)).toBeFalsy();
  const events = (report.structuredContent as { rows: { eventName: string }[] }).rows.map((r) => r.eventName);
  expect(events.length).toBeGreaterThan(0);

  const keyEvents = (
    await call("google_analytics_api_call", { method: "GET", endpoint: `v1beta/${property}/keyEvents` })
  ).structuredContent as { body: { keyEvents?: { eventName: string }[] } };
  const taken = new Set((keyEvents.body.keyEvents ?? []).map((k) => k.eventName));
  const candidate = events.find((name) => !taken.has(name));
  expect(candidate, "a collected event that is not a key event yet").toBeDefined();
  const created = await call("google_analytics_create_key_events", { property, event_name: candidate });
  expect(created.isError, text(created)).toBeFalsy();

  const made = await call("google_analytics_create_properties", {
    analytics_account: withProperties.account,
    display_name: "Made by an MCP test",
    time_zone: "Europe/Paris",
    currency_code: "EUR",
  });
  expect(made.isError, text(made)).toBeFalsy();
}
