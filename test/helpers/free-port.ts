import { readFile } from "node:fs/promises";
import { createServer } from "node:net";

/**
 * Lowest port handed out here. Ports from here up to the kernel's ephemeral range are never given to an
 * outgoing connection nor to a `listen(0)`, so only another test choosing the same number could take them.
 */
const FLOOR = 20_000;

/** The kernel's ephemeral range's first port (Linux; 32768 elsewhere, IANA's range starts higher still). */
async function ephemeralLow(): Promise<number> {
  try {
    const text = await readFile("/proc/sys/net/ipv4/ip_local_port_range", "utf8");
    const low = Number(text.trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

async function anyPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/**
 * A free loopback port for a process the test starts, chosen below the ephemeral range. Not `listen(0)`: its
 * port is released before the process binds it, and in that gap the kernel may give the same number to an
 * outgoing connection. A test polling the port before its server listens can then connect to itself (TCP
 * simultaneous open, source port = destination port) and hold the port: CI met "Port 38617 on 127.0.0.1 is
 * already in use" that way in test/cli/start-window.test.ts.
 */
export async function freePort(): Promise<number> {
  const low = await ephemeralLow();
  if (low - FLOOR < 1_000) return anyPort();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = FLOOR + Math.floor(Math.random() * (low - FLOOR));
    if (await bindable(port)) return port;
  }
  throw new Error(`no free loopback port between ${FLOOR} and ${low} after 50 tries`);
}

export { ephemeralLow };
