import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { stopChild } from "../helpers/cli.js";
import { INIT, raw } from "../helpers/raw-http.js";

/**
 * Bound to every interface (--host 0.0.0.0), the server printed http://0.0.0.0:PORT/... and then refused
 * it: "0.0.0.0" is not an address a client connects to, nor a Host the server accepts (issue 16, item 3).
 * Every URL `serve --http` and `start` print must be answered. URLs on loopback are fetched as printed;
 * the others (the machine's name and LAN addresses) are sent to 127.0.0.1 with the printed Host, which is
 * what the Host check sees when a client uses them.
 */

const BIN = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const KEY = "p".repeat(32);
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

const children: ChildProcess[] = [];
const homes: string[] = [];
afterAll(async () => {
  await Promise.all(children.map(stopChild));
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/** Runs a command of the CLI bound to 0.0.0.0 until `done` matches its stderr; its stderr then. */
function run(args: string[], done: RegExp): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), "martech-printed-"));
  homes.push(home);
  const child = spawn(process.execPath, [BIN, ...args, "--host", "0.0.0.0", "--port", "0"], {
    env: { PATH: process.env.PATH, MARTECH_STEPS_HOME: home, MARTECH_STEPS_API_KEYS: `default:${KEY}` },
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`no URLs printed: ${out}`)), 20_000);
    child.stderr?.on("data", (chunk) => {
      out += chunk;
      if (done.test(out)) {
        clearTimeout(timer);
        resolve(out);
      }
    });
  });
}

/** Every URL of this server in a text (not the sandbox's: they are on other ports). */
function urlsOn(text: string, port: string): URL[] {
  return [...text.matchAll(/http:\/\/[^\s"'`,)]+/g)]
    .map((match) => new URL(match[0]))
    .filter((url) => url.port === port);
}

/** The answer to a printed URL: /mcp gets an initialize with the key, any other page a GET. */
async function answerTo(url: URL): Promise<number> {
  const target = LOOPBACK.test(url.hostname) ? url : new URL(`http://127.0.0.1:${url.port}${url.pathname}`);
  const host = url.host;
  const mcp = url.pathname === "/mcp";
  const res = await raw(target.toString(), {
    method: mcp ? "POST" : "GET",
    headers: { host, ...(mcp ? { authorization: `Bearer ${KEY}` } : {}) },
    ...(mcp ? { body: INIT } : {}),
  });
  return res.status;
}

describe("bound to 0.0.0.0, every URL the server prints is answered", () => {
  it("serve --http prints the machine's name, its addresses and 127.0.0.1, and each one works", async () => {
    const out = await run(["serve", "--http"], /also at http:\/\/127\.0\.0\.1:\d+\/mcp\n/);
    const port = /MCP server: http:\/\/\S+:(\d+)\/mcp/.exec(out)?.[1] ?? "";
    const urls = urlsOn(out, port);
    expect(urls.map((url) => url.hostname)).not.toContain("0.0.0.0");
    expect(urls.length).toBeGreaterThanOrEqual(2);
    expect(urls.some((url) => LOOPBACK.test(url.hostname))).toBe(true);
    for (const url of urls) expect(await answerTo(url), url.toString()).toBe(200);
  });

  it("start prints a console link and client snippets that work", async () => {
    const out = await run(["start"], /Press Ctrl-C/);
    const port = /MCP server \(Streamable HTTP\): http:\/\/\S+:(\d+)\/mcp/.exec(out)?.[1] ?? "";
    const urls = urlsOn(out, port);
    expect(urls.map((url) => url.hostname)).not.toContain("0.0.0.0");
    expect(urls.some((url) => url.pathname === "/")).toBe(true);
    for (const url of urls) expect(await answerTo(url), url.toString()).toBe(200);
  });

  it("the MCP-only server's other pages name the command that serves the console, and that command serves it", async () => {
    const out = await run(["serve", "--http"], /also at http:\/\/127\.0\.0\.1:\d+\/mcp\n/);
    const port = /MCP server: http:\/\/\S+:(\d+)\/mcp/.exec(out)?.[1] ?? "";
    const page = await raw(`http://127.0.0.1:${port}/`, { method: "GET" });
    expect(page.status).toBe(404);
    const hint = /"martech-steps (\w+)" serves one\.$/.exec(page.json()?.error?.message ?? "")?.[1];
    expect(hint).toBe("start");
    // Doing what it says: the command's own / is the console page.
    const started = await run([hint ?? ""], /Press Ctrl-C/);
    const consolePort = /MCP server \(Streamable HTTP\): http:\/\/\S+:(\d+)\/mcp/.exec(started)?.[1] ?? "";
    const home = await raw(`http://127.0.0.1:${consolePort}/`, { method: "GET" });
    expect(home.status).toBe(200);
    expect(home.text).toMatch(/<title>[^<]*martech-steps/i);
  });
});
