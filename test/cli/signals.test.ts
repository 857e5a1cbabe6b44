import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { childEnv } from "../helpers/child-env.js";
import { tempDir } from "../helpers/temp.js";

const FIXTURE = new URL("../fixtures/signal-cleanup.ts", import.meta.url).pathname;

interface Ended {
  stdout: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Starts the fixture, sends SIGTERM `times` times once it is ready, and returns how it ended. */
async function terminate(mode: "on" | "once", times: number): Promise<Ended> {
  const home = await tempDir("martech-signals-");
  const child = spawn(process.execPath, ["--import", "tsx", FIXTURE, home, mode], {
    env: childEnv(),
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stdout = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    const wasReady = stdout.includes("ready\n");
    stdout += chunk;
    if (wasReady || !stdout.includes("ready\n")) return;
    // Apart: two signals of one kind pending at once are delivered as one.
    for (let i = 0; i < times; i++) setTimeout(() => child.kill("SIGTERM"), i * 60);
  });
  return new Promise((resolve) => child.on("close", (code, signal) => resolve({ stdout, code, signal })));
}

describe("the CLI's signal cleanup with the store's lock loaded late", () => {
  it("finishes its cleanup when the file lock (and signal-exit) loaded after the handler", async () => {
    const ended = await terminate("on", 1);
    expect(ended).toEqual({ stdout: "ready\ncleaned\n", code: 0, signal: null });
  }, 30_000);

  it("is what a bare process.once would lose: signal-exit ends the process before the cleanup", async () => {
    // The reason src/cli/signals.ts exists: with `once`, the process dies of the signal mid-cleanup.
    const ended = await terminate("once", 1);
    expect(ended).toEqual({ stdout: "ready\n", code: null, signal: "SIGTERM" });
  }, 30_000);

  it("ends at a second signal, as the signal would, without waiting for the cleanup", async () => {
    const ended = await terminate("on", 2);
    expect(ended.signal).toBe("SIGTERM");
    expect(ended.stdout).toBe("ready\n");
  }, 30_000);
});
