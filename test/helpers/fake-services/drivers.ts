import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { childEnv } from "../child-env.js";
import { BIN, type Run, run } from "../cli.js";

export { BIN, childEnv };

export function requireBuild(): void {
  if (!existsSync(BIN)) throw new Error("dist/ is missing: run `npm run build` (npm test does it).");
}

export type CliRun = Run;

/** One CLI command, as a user runs it (test/helpers/cli.ts), with this suite's longer limit; killed after `timeoutMs`. */
export function runCli(
  args: string[],
  env: Record<string, string>,
  stdin = "",
  timeoutMs = 20_000,
): Promise<CliRun> {
  return run(args, env, { stdin, timeoutMs });
}

const PROTOCOL = "2025-11-25";
const INITIALIZE = {
  method: "initialize",
  params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "trust-suite", version: "1" } },
};

/** A JSON-RPC response to one of our requests. */
export interface RpcResponse {
  id: number;
  result?: { isError?: boolean; content?: { type: string; text?: string }[]; structuredContent?: unknown };
  error?: { code: number; message: string };
}

/**
 * `martech-steps serve` over stdio, spoken to with raw newline-delimited JSON-RPC (no SDK classes, so
 * this outlives a change of MCP SDK). Every byte the child writes is kept in `bytes`.
 */
export class StdioMcp {
  bytes = "";
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #waiting = new Map<number, (response: RpcResponse) => void>();
  #buffer = "";
  #nextId = 1;

  private constructor(env: Record<string, string>) {
    this.#child = spawn(process.execPath, [BIN, "serve"], { env: childEnv(env) });
    this.#child.stderr.on("data", (chunk) => {
      this.bytes += String(chunk);
    });
    this.#child.stdout.on("data", (chunk) => {
      const text = String(chunk);
      this.bytes += text;
      this.#buffer += text;
      let newline = this.#buffer.indexOf("\n");
      while (newline >= 0) {
        const line = this.#buffer.slice(0, newline).trim();
        this.#buffer = this.#buffer.slice(newline + 1);
        newline = this.#buffer.indexOf("\n");
        if (!line) continue;
        const message = JSON.parse(line) as RpcResponse & { method?: string };
        if (typeof message.id === "number" && !message.method) this.#waiting.get(message.id)?.(message);
      }
    });
  }

  static async start(env: Record<string, string>): Promise<StdioMcp> {
    const mcp = new StdioMcp(env);
    await mcp.request(INITIALIZE.method, INITIALIZE.params);
    mcp.#send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return mcp;
  }

  request(method: string, params: unknown, timeoutMs = 20_000): Promise<RpcResponse> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no answer to ${method} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.#waiting.set(id, (response) => {
        clearTimeout(timer);
        this.#waiting.delete(id);
        resolve(response);
      });
      this.#send({ jsonrpc: "2.0", id, method, params });
    });
  }

  call(name: string, args: unknown): Promise<RpcResponse> {
    return this.request("tools/call", { name, arguments: args });
  }

  #send(message: unknown): void {
    this.#child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    const closed = new Promise((resolve) => this.#child.on("close", resolve));
    this.#child.stdin.end();
    setTimeout(() => this.#child.kill("SIGKILL"), 3_000).unref();
    await closed;
  }
}

/** The JSON-RPC messages of a Streamable HTTP answer (JSON, or SSE `data:` lines). */
function rpcMessages(contentType: string, text: string): RpcResponse[] {
  if (contentType.includes("text/event-stream")) {
    return text
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => JSON.parse(line.slice(5)) as RpcResponse);
  }
  const parsed = JSON.parse(text) as RpcResponse | RpcResponse[];
  return Array.isArray(parsed) ? parsed : [parsed];
}

/**
 * `martech-steps serve --http --port 0` spoken to with raw POST /mcp requests (protocol 2025-11-25; a
 * session id is sent back when the server gives one). Every byte of every answer and of the child's
 * output is kept in `bytes`.
 */
export class HttpMcp {
  bytes = "";
  url = "";
  readonly #child: ChildProcessWithoutNullStreams;
  #session: string | undefined;
  #nextId = 1;

  private constructor(env: Record<string, string>) {
    this.#child = spawn(process.execPath, [BIN, "serve", "--http", "--port", "0"], { env: childEnv(env) });
    this.#child.stdout.on("data", (chunk) => {
      this.bytes += String(chunk);
    });
    this.#child.stderr.on("data", (chunk) => {
      this.bytes += String(chunk);
    });
  }

  static async start(env: Record<string, string>): Promise<HttpMcp> {
    const mcp = new HttpMcp(env);
    const started = Date.now();
    while (!mcp.url) {
      const match = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(mcp.bytes);
      if (match?.[1]) mcp.url = match[1];
      else if (Date.now() - started > 15_000) throw new Error(`the HTTP server did not start: ${mcp.bytes}`);
      else await new Promise((r) => setTimeout(r, 20));
    }
    await mcp.request(INITIALIZE.method, INITIALIZE.params);
    await mcp.#post({ jsonrpc: "2.0", method: "notifications/initialized" });
    return mcp;
  }

  async request(method: string, params: unknown): Promise<RpcResponse> {
    const id = this.#nextId++;
    const messages = await this.#post({ jsonrpc: "2.0", id, method, params });
    const response = messages.find((m) => m.id === id);
    if (!response) throw new Error(`no answer to ${method}`);
    return response;
  }

  call(name: string, args: unknown): Promise<RpcResponse> {
    return this.request("tools/call", { name, arguments: args });
  }

  async #post(message: unknown): Promise<RpcResponse[]> {
    const response = await fetch(this.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": PROTOCOL,
        ...(this.#session ? { "mcp-session-id": this.#session } : {}),
      },
      body: JSON.stringify(message),
    });
    this.#session = response.headers.get("mcp-session-id") ?? this.#session;
    const text = await response.text();
    this.bytes += `${[...response.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n${text}`;
    return text.trim() === "" ? [] : rpcMessages(response.headers.get("content-type") ?? "", text);
  }

  async close(): Promise<void> {
    const closed = new Promise((resolve) => this.#child.on("close", resolve));
    this.#child.kill("SIGTERM");
    setTimeout(() => this.#child.kill("SIGKILL"), 3_000).unref();
    await closed;
  }
}
