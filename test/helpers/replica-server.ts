import { type ChildProcess, spawn } from "node:child_process";
import { childEnv } from "./child-env.js";
import { BIN } from "./cli.js";
import { type RawResponse, raw } from "./raw-http.js";

/** Server replicas as an operator runs them, and the stateless calls a load balancer spreads over them. */
export interface Replica {
  url: string;
  child: ChildProcess;
}

/** `martech-steps serve --http` as an operator runs it: its own process, on Redis, with Marketo from the environment. */
export async function startReplica(env: Record<string, string>): Promise<Replica> {
  const child = spawn(process.execPath, [BIN, "serve", "--http", "--port", "0"], {
    env: { ...childEnv(), MARTECH_STEPS_LOG_LEVEL: "error", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stderr = "";
    const timer = setTimeout(() => reject(new Error(`replica did not start: ${stderr}`)), 15_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk;
      const match = /MCP server: (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.once("exit", (code) => reject(new Error(`replica exited (${code}) before serving: ${stderr}`)));
  });
  return { url, child };
}

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** One stateless 2026-07-28 tools/call: any replica can take it, as behind a plain load balancer. */
export const readLead = (url: string, id: number) =>
  raw(url, {
    headers: {
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "marketo_api_call",
    },
    body: {
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        name: "marketo_api_call",
        arguments: { method: "GET", endpoint: `/rest/v1/lead/${(id % 50) + 1}.json` },
        _meta: META,
      },
    },
  });

export function answered(response: RawResponse): boolean {
  const message = response.json() as {
    result?: { isError?: boolean; structuredContent?: { result?: unknown[] } };
  };
  return (
    response.status === 200 &&
    !message?.result?.isError &&
    message?.result?.structuredContent?.result?.length === 1
  );
}

export const metric = (text: string, name: string) =>
  Number(
    /^(\S+)\{service="marketo"\} (\S+)$/m.exec(
      text
        .split("\n")
        .filter((l) => l.startsWith(name))
        .join("\n"),
    )?.[2] ?? 0,
  );
