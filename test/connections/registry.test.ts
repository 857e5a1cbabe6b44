import { describe, expect, expectTypeOf, it } from "vitest";
import type { WorkspaceSecrets } from "../../src/auth/credential-store.js";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import {
  ACCOUNTS_KIND,
  type AccountsKind,
  CONNECTION_KINDS,
  CONNECTION_ROOMS,
  CONNECTIONS,
  type ConnectionKind,
  type ConnectorOf,
  SERVICE_IDS,
  type ServiceId,
} from "../../src/connections/registry.js";
import type { GoogleAnalyticsConnector } from "../../src/connectors/google/connector.js";
import type { MarketoConnector } from "../../src/connectors/marketo/connector.js";
import { buildManifest } from "../../src/manifest.js";
import { sandboxEnv } from "../../src/sandbox/index.js";
import { MemoryState } from "../../src/state/memory.js";
import type { Service } from "../../src/telemetry.js";
import { TOOL_STEPS } from "../../src/tools/registry.js";
import type { ToolContext } from "../../src/tools/types.js";
import { Workspace } from "../../src/workspace.js";

/** A step's ToolContext.connection, for its types only. */
declare const ask: ToolContext["connection"];

describe("the connection registry", () => {
  it("names every step's connection, and the step's service is its room's", () => {
    for (const step of TOOL_STEPS) {
      expect(CONNECTION_KINDS, step.id).toContain(step.connection);
      expect(step.service, step.id).toBe(CONNECTION_ROOMS[step.connection].service);
    }
  });

  it("keys each room by its own kind, and its definition by the same id", () => {
    for (const kind of CONNECTION_KINDS) {
      expect(CONNECTION_ROOMS[kind].kind).toBe(kind);
      expect(CONNECTION_ROOMS[kind].definition.id).toBe(kind);
    }
  });

  it("drives manifest.json's connections: one per room, in registry order", () => {
    expect(buildManifest().connections).toEqual(
      CONNECTION_KINDS.map((kind) => CONNECTION_ROOMS[kind].definition),
    );
    expect(Object.keys(CONNECTIONS)).toEqual(CONNECTION_KINDS);
  });

  it("drives the metrics' service label and the steps' service id", () => {
    expect(SERVICE_IDS).toEqual(CONNECTION_KINDS.map((kind) => CONNECTION_ROOMS[kind].service));
    expect(new Set(TOOL_STEPS.map((step) => step.service))).toEqual(new Set(SERVICE_IDS));
    expectTypeOf<ServiceId>().toExtend<Service>();
    expectTypeOf<"marketo" | "google">().toExtend<ConnectionKind>();
  });

  it("types ctx.connection(kind) by the room's connector, and the stored document by the rooms' parts", () => {
    expectTypeOf<ConnectorOf<"marketo">>().toEqualTypeOf<MarketoConnector>();
    expectTypeOf<ConnectorOf<"google">>().toEqualTypeOf<GoogleAnalyticsConnector>();
    expectTypeOf<Awaited<ReturnType<typeof ask<"marketo">>>>().toEqualTypeOf<MarketoConnector>();
    expectTypeOf<Awaited<ReturnType<typeof ask<"google">>>>().toEqualTypeOf<GoogleAnalyticsConnector>();
    expectTypeOf<WorkspaceSecrets>().toHaveProperty("marketo");
    expectTypeOf<WorkspaceSecrets>().toHaveProperty("googleAccounts");
  });

  it("is what a workspace asks: every kind answers, unconfigured ones with a not_configured error naming the workspace", async () => {
    const workspace = new Workspace({
      name: "acme",
      env: {},
      store: new MemoryCredentialStore(),
      state: new MemoryState(),
    });
    for (const kind of CONNECTION_KINDS) {
      await expect(workspace.connection(kind)).rejects.toMatchObject({ code: "not_configured" });
      expect(workspace.handle(kind)).toBe(workspace.handle(kind));
    }
    await workspace.close();
  });

  it("finds the room whose handle holds the connected accounts by the room's own word (accounts: true)", async () => {
    expectTypeOf<AccountsKind>().toEqualTypeOf<"google">();
    expect(ACCOUNTS_KIND).toBe("google");
    const workspace = new Workspace({
      env: {},
      store: new MemoryCredentialStore(),
      state: new MemoryState(),
    });
    for (const kind of CONNECTION_KINDS) {
      const room: { accounts?: true } = CONNECTION_ROOMS[kind];
      expect("accounts" in workspace.handle(kind), kind).toBe(room.accounts === true);
    }
    await workspace.close();
  });

  it("starts the emulator of a room only when it is asked for (the sandbox wiring is loaded on use)", async () => {
    const { startEmulators } = await import("../../src/cli/sandbox-wiring.js");
    const emulators = await startEmulators({ google: true });
    try {
      expect(emulators.marketo).toBeUndefined();
      expect(emulators.google).toBeDefined();
      expect(Object.keys(emulators.env).some((name) => name.startsWith("MARKETO_"))).toBe(false);
      expect(emulators.env.GOOGLE_OAUTH_URL).toBe(emulators.google?.oauthUrl);
      // The rooms' variables are the ones the tests' own sandbox wiring sets.
      expect(emulators.env).toEqual(sandboxEnv({ google: emulators.google }));
    } finally {
      await emulators.close();
    }
  });

  it("declares, for `sandbox --unset`, exactly the variables each room's emulator sets, in its order", async () => {
    const { startEmulators } = await import("../../src/cli/sandbox-wiring.js");
    for (const kind of CONNECTION_KINDS) {
      const emulators = await startEmulators({ [kind]: true });
      try {
        expect(Object.keys(emulators.env), kind).toEqual(CONNECTION_ROOMS[kind].sandboxCommand?.variables);
      } finally {
        await emulators.close();
      }
    }
  });
});
