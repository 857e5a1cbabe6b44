import type { CredentialStore } from "../auth/credential-store.js";
import { CONNECTION_KINDS, CONNECTION_ROOMS, type ConnectionKind } from "../connections/registry.js";
import { type ConsoleHandle, createConsole } from "../console/index.js";
import { type HttpServerHandle, isLoopback, startHttpServer } from "../host/http.js";
import { createState, type SharedState } from "../state/index.js";
import { Workspace } from "../workspace.js";
import { newAdminToken, writeAdminFile } from "./console-link.js";
import { type Emulators, sandboxOf, startEmulators } from "./sandbox-wiring.js";
import {
  closeOnSignal,
  cookieWarning,
  httpOptions,
  listenError,
  type ServeOptions,
  workspaceFactory,
} from "./serve.js";

/** The rooms with nothing configured that reaches the real service: `npm start` runs their emulators. */
async function unconfigured(probe: Workspace): Promise<Record<ConnectionKind, boolean>> {
  const needs = await Promise.all(
    CONNECTION_KINDS.map(async (kind) => [kind, !(await CONNECTION_ROOMS[kind].configured(probe.context))]),
  );
  return Object.fromEntries(needs);
}

/** The user's store, with what a room's sandbox holds in this process only (the sandbox Google account). */
async function heldStore(base: CredentialStore, emulators: Emulators, env: NodeJS.ProcessEnv) {
  let store = base;
  for (const kind of CONNECTION_KINDS) {
    const emulator = emulators[kind];
    const hold = emulator && (await sandboxOf(kind))?.hold;
    if (emulator && hold) store = await hold(store, emulator, env);
  }
  return store;
}

/** `npm start`'s line per service: the sandbox it runs on, "configured", or (a room without an emulator) not. */
async function serviceLines(emulators: Emulators, needs: Record<ConnectionKind, boolean>): Promise<string[]> {
  const lines = CONNECTION_KINDS.map(async (kind) => {
    const emulator = emulators[kind];
    const wiring = emulator && (await sandboxOf(kind));
    const shown = wiring ? wiring.describe(emulator) : needs[kind] ? "not configured" : "configured";
    return `  ${CONNECTION_ROOMS[kind].label}: ${shown}`;
  });
  return Promise.all(lines);
}

/** How to connect the usual clients, one JSON snippet per line (each as its client's file wants it). */
function clientLines(url: string, emulators: Emulators): string[] {
  const onSandbox = CONNECTION_KINDS.every(
    (kind) => emulators[kind] !== undefined || !CONNECTION_ROOMS[kind].sandbox,
  );
  const stdio = {
    command: process.execPath,
    args: [process.argv[1] ?? "dist/cli/main.js", "serve", ...(onSandbox ? ["--sandbox"] : [])],
  };
  const json = (value: unknown) => JSON.stringify(value);
  return [
    `  VS Code (.vscode/mcp.json): ${json({ servers: { "martech-steps": { type: "http", url } } })}`,
    `  Cursor (~/.cursor/mcp.json): ${json({ mcpServers: { "martech-steps": { url } } })}`,
    `  Claude Desktop (claude_desktop_config.json, stdio ${onSandbox ? "on the sandbox" : "on your configuration"}): ${json({ mcpServers: { "martech-steps": stdio } })}`,
    `  MCP Inspector (Node 22.19 or newer; save as inspector.json, then npx -y @modelcontextprotocol/inspector --config inspector.json --server martech-steps): ${json({ mcpServers: { "martech-steps": { type: "streamable-http", url } } })}`,
  ];
}

/** What `start` runs: the emulators, the console and the HTTP server. */
interface Running {
  needs: Record<ConnectionKind, boolean>;
  emulators: Emulators;
  web: ConsoleHandle;
  handle: HttpServerHandle;
  /** The interface it listens on. */
  host: string;
  removeAdminFile: () => void;
}

/**
 * Starts everything `start` runs. A start-up error (a store that cannot be opened, a setting refused, a
 * port taken) closes everything started so far, Redis connections included (one left open kept the
 * process alive for ever), so the command exits at once with the error.
 */
async function startAll(options: ServeOptions): Promise<Running> {
  const probe = new Workspace({ env: process.env, state: createState({}) });
  let emulators: Emulators | undefined;
  let state: SharedState | undefined;
  try {
    const needs = await unconfigured(probe);
    const running = await startEmulators(needs);
    emulators = running;
    const env = { ...process.env, ...running.env };
    state = createState(env);
    const store = await heldStore(probe.store, running, env);
    const workspaces = workspaceFactory({ env, store, state });
    const http = httpOptions(env, options);
    const sandbox = Object.fromEntries(CONNECTION_KINDS.map((kind) => [kind, running[kind] !== undefined]));
    const adminToken = newAdminToken();
    const web = createConsole({
      workspace: workspaces,
      loopback: isLoopback(http.host),
      apiKeys: http.apiKeys,
      env,
      sandbox,
      adminToken,
    });
    const handle = await startHttpServer({
      ...http,
      oauth: { ...http.oauth, consent: web.consent },
      workspace: workspaces,
      routes: web.routes,
    }).catch((error: unknown) => {
      web.close();
      throw listenError(error, process.env, options, http);
    });
    // `martech-steps console-link` reads it for a new login link (loopback only: off it there are none).
    const removeAdminFile = isLoopback(http.host)
      ? writeAdminFile(process.env, handle.url, adminToken)
      : () => {};
    return { needs, emulators: running, web, handle, host: http.host, removeAdminFile };
  } catch (error) {
    await Promise.allSettled([emulators?.close(), state?.close(), probe.store.close?.()]);
    throw error;
  }
}

/**
 * `npm start`: the MCP HTTP server, wired to the sandbox for every service that is not configured,
 * so a fresh machine works with no account.
 */
export async function start(options: ServeOptions): Promise<HttpServerHandle> {
  const { needs, emulators, web, handle, host, removeAdminFile } = await startAll(options);
  process.stderr.write(cookieWarning(process.env, host, web.secureCookie));
  const lines = [
    `Console (open in your browser; the login link works once): ${web.loginUrl(handle.url)}`,
    ...(isLoopback(new URL(handle.url).hostname)
      ? ["  Another login link, without a restart: martech-steps console-link"]
      : []),
    `martech-steps MCP server (Streamable HTTP): ${handle.url}`,
    ...(await serviceLines(emulators, needs)),
    "",
    "Connect a client:",
    ...clientLines(handle.url, emulators),
    "Press Ctrl-C to stop.",
  ];
  process.stderr.write(`${lines.join("\n")}\n`);
  const close = async () => {
    removeAdminFile();
    web.close();
    await handle.close();
    await emulators.close();
  };
  closeOnSignal(close);
  return { ...handle, close };
}
