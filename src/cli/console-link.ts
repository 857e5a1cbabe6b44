/**
 * `martech-steps console-link`: a new console login link from the server `start` runs, without a
 * restart (a link works once, for 15 minutes). `start` writes, for each loopback console it serves, a
 * file only its user can read (0600 in a 0700 folder of the credential folder, MARTECH_STEPS_HOME) with
 * the server's address and a random admin token; this command reads it and asks the server for a link
 * over loopback with the token (src/console/admin-link.ts). The file goes when the server stops.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkWorkspaceName, defaultHome } from "../auth/store-core.js";
import { ConfigurationError, NetworkError } from "../errors.js";

/** Where a running server's admin file is: one per port. */
export const consolesFolder = (env: NodeJS.ProcessEnv) => join(defaultHome(env), "consoles");

interface AdminFile {
  url: string;
  token: string;
  pid: number;
}

/** Writes this server's admin file (the token is new); returns the token and how to remove the file. */
export function writeAdminFile(env: NodeJS.ProcessEnv, url: string, token: string): () => void {
  const folder = consolesFolder(env);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  chmodSync(folder, 0o700);
  const file = join(folder, `${new URL(url).port || "80"}.json`);
  const content: AdminFile = { url, token, pid: process.pid };
  rmSync(file, { force: true });
  // "wx": a new file, created 0600 (never a file another user prepared, nor one left readable).
  writeFileSync(file, JSON.stringify(content), { mode: 0o600, flag: "wx" });
  return () => rmSync(file, { force: true });
}

/** A new admin token: 256 random bits. */
export const newAdminToken = () => randomBytes(32).toString("base64url");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The admin files of the servers running now (a file left by a server that died is skipped). */
function runningServers(env: NodeJS.ProcessEnv): AdminFile[] {
  let names: string[];
  try {
    names = readdirSync(consolesFolder(env)).filter((name) => /^\d+\.json$/.test(name));
  } catch {
    names = [];
  }
  return names
    .map((name) => JSON.parse(readFileSync(join(consolesFolder(env), name), "utf8")) as AdminFile)
    .filter((file) => alive(file.pid));
}

const NONE_HINT = "Start one with: npm start (martech-steps start); it prints a login link.";

/** The server to ask: the only one running, or the one on `port`. */
function pick(env: NodeJS.ProcessEnv, port: string | undefined): AdminFile {
  const servers = runningServers(env);
  const on = port ? servers.filter((file) => new URL(file.url).port === port) : servers;
  if (on.length === 1 && on[0]) return on[0];
  if (on.length === 0) {
    throw new ConfigurationError(
      `No console is running${port ? ` on port ${port}` : ""} for the credential folder ${defaultHome(env)}.`,
      { hint: NONE_HINT },
    );
  }
  throw new ConfigurationError(`Several consoles are running (${on.map((file) => file.url).join(", ")}).`, {
    hint: "Name one with --port <port>.",
  });
}

/** Asks the running server for a new login link to the workspace's console. */
export async function consoleLink(
  env: NodeJS.ProcessEnv,
  options: { port?: string; workspace?: string },
): Promise<string> {
  const workspace = checkWorkspaceName(options.workspace ?? "default");
  const server = pick(env, options.port);
  let response: Response;
  try {
    response = await fetch(new URL("/console/admin/login-link", server.url), {
      method: "POST",
      headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
      body: JSON.stringify({ workspace }),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new NetworkError(`The console at ${server.url} did not answer.`, {
      cause: error,
      hint: NONE_HINT,
    });
  }
  const body = (await response.json().catch(() => ({}))) as { url?: string; error?: { message?: string } };
  if (!response.ok || !body.url) {
    throw new ConfigurationError(
      `The console at ${server.url} gave no login link: ${body.error?.message ?? `HTTP ${response.status}`}`,
      { hint: "Restart it with npm start if it was started by an older version." },
    );
  }
  return body.url;
}
