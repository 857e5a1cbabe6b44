import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshHome, occupyPort, run } from "../helpers/cli.js";
import { type RedisProcess, startRedis } from "../helpers/redis-process.js";

/**
 * Issue 25 §2: with REDIS_URL set, a start-up error printed its `error:` line and the process never exited
 * (the shared state's Redis connection kept it alive); without Redis it exited 1 in 0.8 s. Each start-up
 * error below must end the command with one `error:` line and a non-zero code, with what it opened closed:
 * at debug level the CLI logs what it still found open before it exits anyway, and that line must not come.
 */

/** Long enough for a loaded machine to start and fail; a command that hangs is killed and reported as null. */
const BOUND_MS = 30_000;
const LEFT_OPEN = /a failed command left resources open/;

let redis: RedisProcess;
let port: Awaited<ReturnType<typeof occupyPort>>;

beforeAll(async () => {
  redis = await startRedis();
  port = await occupyPort();
});
afterAll(async () => {
  await redis?.stop();
  await new Promise((resolve) => port?.server.close(resolve));
});

/** A home whose key file other users can read (the store refuses it). */
async function openKeyHome(): Promise<string> {
  const home = await freshHome("exit-key-");
  await mkdir(home, { recursive: true, mode: 0o700 });
  await chmod(home, 0o700);
  await writeFile(join(home, "key"), `${Buffer.alloc(32, 7).toString("base64")}\n`, { mode: 0o644 });
  await chmod(join(home, "key"), 0o644);
  return home;
}

/** A Redis store (db 2) whose document was sealed with another key than the one `start` is given. */
async function storeOfAnotherKey(): Promise<Record<string, string>> {
  const env = { REDIS_URL: `${redis.url}/2`, MARTECH_STEPS_STORE: "redis" };
  const saved = await run(
    [
      "marketo",
      "configure",
      "--no-verify",
      "--client-id",
      "exit-test-client",
      "--endpoint",
      "https://123-ABC-456.mktorest.com/rest",
    ],
    { ...env, MARTECH_STEPS_HOME: await freshHome("exit-"), MARTECH_STEPS_KEY: "a".repeat(64) },
    { stdin: "exit-test-secret-value\n" },
  );
  expect(saved.code, saved.stderr).toBe(0);
  return { ...env, MARTECH_STEPS_KEY: "b".repeat(64) };
}

interface Case {
  name: string;
  env?: Record<string, string>;
  /** The environment made for the case (after REDIS_URL: it may name another database). */
  setup?: () => Promise<Record<string, string>>;
  args?: string[];
  home?: () => Promise<string>;
  /** Which commands meet it at start-up (serve --http opens the store at the first request). */
  only?: string;
  error: RegExp;
}

const CASES: Case[] = [
  {
    name: "an API key of 5 characters",
    env: { MARTECH_STEPS_API_KEYS: "ws:abcde" },
    error: /shorter than 24 characters/,
  },
  { name: "a port that is not one", args: ["--port", "99999"], error: /is not a port/ },
  { name: "a port in use", args: ["--port", "PORT_IN_USE"], error: /already in use/ },
  { name: "a store key file others can read", home: openKeyHome, error: /too open/ },
  {
    name: "a bad session setting",
    env: { MARTECH_STEPS_SESSION_IDLE_MS: "soon" },
    error: /MARTECH_STEPS_SESSION_IDLE_MS must be/,
  },
  {
    name: "the embedded authorization server off loopback without HTTPS",
    env: { MARTECH_STEPS_OAUTH: "embedded", MARTECH_STEPS_API_KEYS: `ws:${"k".repeat(32)}` },
    args: ["--host", "0.0.0.0", "--port", "0"],
    error: /without HTTPS/,
  },
  {
    name: "a store written with another key",
    setup: storeOfAnotherKey,
    only: "start",
    error: /written with another key/,
  },
];

describe("a start-up error with REDIS_URL set", () => {
  for (const command of [["start"], ["serve", "--http"]]) {
    for (const c of CASES.filter((c) => c.only === undefined || c.only === command.join(" "))) {
      it(`${command.join(" ")}: ${c.name} exits non-zero with one error line, everything closed`, async () => {
        const args = (c.args ?? []).map((arg) => (arg === "PORT_IN_USE" ? String(port.port) : arg));
        const result = await run(
          [...command, ...args],
          {
            MARTECH_STEPS_HOME: await (c.home ?? (() => freshHome("exit-")))(),
            REDIS_URL: redis.url,
            MARTECH_STEPS_LOG_LEVEL: "debug",
            ...c.env,
            ...(await c.setup?.()),
          },
          { timeoutMs: BOUND_MS },
        );
        const errors = result.stderr.split("\n").filter((line) => line.startsWith("error:"));
        expect(result.code, `${result.stderr.slice(-800)}`).not.toBeNull();
        expect(result.code).not.toBe(0);
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatch(c.error);
        expect(result.stderr).not.toMatch(LEFT_OPEN);
      }, 60_000);
    }
  }
});
