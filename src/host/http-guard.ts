import { hostname, networkInterfaces } from "node:os";
import { ConfigurationError } from "../errors.js";
import { DEFAULT_WORKSPACE } from "../workspace.js";

/** How long a 2025-era session may stay idle, and how many may be open, unless configured. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
export const DEFAULT_MAX_SESSIONS = 100;

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function isWildcard(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "[::]";
}

/** An address as it appears in a Host header: IPv6 in brackets. */
function hostForm(address: string): string {
  return address.includes(":") && !address.startsWith("[") ? `[${address}]` : address;
}

/**
 * The names a client may use to reach a server bound to `host`: loopback names (and the address bound) for loopback; for a
 * wildcard bind, every address of this machine and its host name (clients connect by 127.0.0.1, the
 * LAN address or the machine's name); otherwise the address bound.
 */
export function ownHostNames(host: string): string[] {
  // The loopback address bound is among them (127.0.0.2 is printed, so it must be accepted): a literal
  // loopback address is never a name a rebinding page can send.
  if (isLoopback(host))
    return [...new Set(["127.0.0.1", "localhost", "[::1]", hostForm(host.toLowerCase())])];
  if (!isWildcard(host)) return [hostForm(host.toLowerCase())];
  const names = new Set(["127.0.0.1", "localhost", "[::1]", hostname().toLowerCase()]);
  for (const addresses of Object.values(networkInterfaces())) {
    for (const { address, scopeid } of addresses ?? []) {
      // Link-local IPv6 needs a zone id, which a Host header cannot carry.
      if (!scopeid) names.add(hostForm(address.toLowerCase()));
    }
  }
  return [...names];
}

/**
 * The names to print for a server bound to `host`, the one to share first: for a wildcard bind, the
 * machine's name, then its other addresses, then 127.0.0.1 (a wildcard is not an address a client can
 * use, and "0.0.0.0" is not a Host this server accepts); otherwise the address bound. Each one is among
 * ownHostNames, so the Host check accepts every URL printed.
 */
export function printedHostNames(host: string): string[] {
  if (!isWildcard(host)) return [hostForm(host.toLowerCase())];
  const own = ownHostNames(host);
  const loopback = ["127.0.0.1", "localhost", "[::1]"];
  const others = own.filter((name) => !loopback.includes(name) && !/^127\./.test(name));
  // IPv4 before IPv6: the addresses people type and most client configurations expect.
  others.sort((a, b) => Number(a.startsWith("[")) - Number(b.startsWith("[")));
  return [...others, "127.0.0.1"];
}

/**
 * Host header values to accept (DNS rebinding protection: a page that resolves its own name to our
 * address sends its own name as Host). A name alone is what a client sends on port 80.
 */
export function allowedHostSet(
  names: readonly string[],
  port: number,
  extra: readonly string[],
): Set<string> {
  return new Set([
    ...names.map((name) => `${name}:${port}`),
    ...(port === 80 ? names : []),
    ...extra.map((h) => h.toLowerCase()),
  ]);
}

export function allowedOriginSet(
  names: readonly string[],
  port: number,
  extra: readonly string[],
): Set<string> {
  return new Set([
    ...names.flatMap((name) => [`http://${name}:${port}`, `https://${name}:${port}`]),
    ...(port === 80 ? names.map((name) => `http://${name}`) : []),
    ...extra.map((o) => o.toLowerCase()),
  ]);
}

/** Parses MARTECH_STEPS_API_KEYS ("workspace:key,other:key2") into key → workspace. */
export function parseApiKeys(raw: string | undefined): Map<string, string> {
  const keys = new Map<string, string>();
  for (const entry of (raw ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const colon = entry.indexOf(":");
    const workspace = colon > 0 ? entry.slice(0, colon) : DEFAULT_WORKSPACE;
    const key = colon > 0 ? entry.slice(colon + 1) : entry;
    if (key.length < 24) {
      throw new ConfigurationError(`An API key for workspace "${workspace}" is shorter than 24 characters.`, {
        hint: "Use long random keys, e.g. `openssl rand -hex 24`.",
      });
    }
    keys.set(key, workspace);
  }
  return keys;
}
