/**
 * Stdio cold start: from spawning the process to the answer to the first tools/list (initialize,
 * initialized and tools/list written at once, as a client does), ours (`serve`, built) against the
 * SDK's minimal one-tool server.
 */
import { spawn } from "node:child_process";
import type { BenchConfig } from "../lib/config.js";
import { interleaved, type Row, ratioRow } from "../lib/stats.js";
import { benchHome } from "../lib/temp-home.js";

const OPENING = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
]
  .map((message) => JSON.stringify(message))
  .join("\n");

/** Milliseconds from spawn to the tools/list answer. */
export function timeToToolsList(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "ignore"], env });
    let buffer = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffer += chunk;
      let newline = buffer.indexOf("\n");
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf("\n");
        const message = JSON.parse(line) as { id?: number; result?: { tools?: unknown[] } };
        if (message.id !== 2) continue;
        const ms = performance.now() - start;
        child.kill();
        if (!message.result?.tools?.length) reject(new Error(`no tools listed by ${args.join(" ")}`));
        else resolve(ms);
      }
    });
    child.once("exit", (code, signal) => {
      if (signal === null) reject(new Error(`${args.join(" ")} exited with ${code} before listing tools`));
    });
    child.stdin.write(`${OPENING}\n`);
  });
}

export async function coldStartRow(cfg: BenchConfig): Promise<Row> {
  const { REDIS_URL: _shared, ...rest } = process.env;
  const env = { ...rest, MARTECH_STEPS_HOME: benchHome() };
  const ours = () => timeToToolsList(["dist/cli/main.js", "serve"], env);
  const floor = () => timeToToolsList(["bench/minimal-stdio.mjs"], env);
  // One unmeasured start of each fills the OS file cache.
  await ours();
  await floor();
  return ratioRow(
    { name: "stdio cold start to the first tools/list answer", unit: "ms", floorName: "SDK minimal server" },
    await interleaved(cfg.repeats, ours, floor),
    1.3,
  );
}
