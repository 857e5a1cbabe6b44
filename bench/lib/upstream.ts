import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { GoogleSandbox, MarketoSandboxOptions } from "../../src/sandbox/index.js";
import type { MarketoSandboxStats } from "../../src/sandbox/marketo/index.js";

export type UpstreamRequest =
  | { cmd: "marketo"; options: MarketoSandboxOptions }
  | { cmd: "marketo-stats"; handle: number }
  | { cmd: "marketo-reset"; handle: number }
  | { cmd: "google"; latencyMs: number }
  | { cmd: "google-stats"; handle: number }
  | { cmd: "leads"; total: number }
  | { cmd: "close"; handle: number };

export type UpstreamReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string };

export interface MarketoTarget {
  handle: number;
  url: string;
  restEndpoint: string;
  clientId: string;
  clientSecret: string;
}

/** A Google sandbox in the upstream process: its addresses and client, and a refresh token minted there. */
export type GoogleTarget = Pick<
  GoogleSandbox,
  "url" | "dataApiUrl" | "adminApiUrl" | "oauthUrl" | "authorizeUrl" | "clientId" | "clientSecret"
> & { handle: number; refreshToken: string };

const SERVERS = fileURLToPath(new URL("../servers.ts", import.meta.url));

/** The upstream process (bench/servers.ts): sandboxes and stubs on loopback, out of the measured process. */
export class Upstream {
  readonly #child: ChildProcess;
  readonly #pending = new Map<number, (reply: UpstreamReply) => void>();
  #next = 1;

  private constructor(child: ChildProcess) {
    this.#child = child;
    child.on("message", (reply: UpstreamReply) => {
      this.#pending.get(reply.id)?.(reply);
      this.#pending.delete(reply.id);
    });
  }

  static async start(): Promise<Upstream> {
    const child = fork(SERVERS, [], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    await new Promise<void>((resolve, reject) => {
      child.once("message", () => resolve());
      child.once("exit", (code) => reject(new Error(`bench/servers.ts exited with ${code}`)));
    });
    return new Upstream(child);
  }

  async #call<T>(request: UpstreamRequest): Promise<T> {
    const id = this.#next++;
    const reply = await new Promise<UpstreamReply>((resolve) => {
      this.#pending.set(id, resolve);
      this.#child.send({ id, request });
    });
    if (!reply.ok) throw new Error(reply.error);
    return reply.value as T;
  }

  marketo(options: MarketoSandboxOptions): Promise<MarketoTarget> {
    return this.#call({ cmd: "marketo", options });
  }

  marketoStats(handle: number): Promise<MarketoSandboxStats> {
    return this.#call({ cmd: "marketo-stats", handle });
  }

  google(latencyMs: number): Promise<GoogleTarget> {
    return this.#call({ cmd: "google", latencyMs });
  }

  leads(total: number): Promise<{ handle: number; url: string }> {
    return this.#call({ cmd: "leads", total });
  }

  close(handle: number): Promise<void> {
    return this.#call({ cmd: "close", handle });
  }

  stop(): void {
    this.#child.disconnect();
  }
}

/** Limits so open that a row measures per-call cost, never a wait. */
export const OPEN_LIMITS: MarketoSandboxOptions = {
  rateLimit: 1_000_000_000,
  maxConcurrent: 1_000_000,
  dailyQuota: 1_000_000_000,
};

/** A bearer token from the sandbox's identity endpoint, as a raw client gets one. */
export async function rawMarketoToken(target: {
  url: string;
  clientId: string;
  clientSecret: string;
}): Promise<string> {
  const body = new URLSearchParams({
    grant_type: "client_credentials",
    client_id: target.clientId,
    client_secret: target.clientSecret,
  });
  const res = await fetch(`${target.url}/identity/oauth/token`, { method: "POST", body });
  return ((await res.json()) as { access_token: string }).access_token;
}
