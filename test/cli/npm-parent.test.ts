/**
 * Under `npm start`, npm runs the server in `sh -c`, and a SIGTERM sent to npm alone is not passed on
 * (npm/cli#6684): once its parent is gone, the server stops by itself instead of running on orphaned.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { childEnv } from "../helpers/child-env.js";
import { BIN, exited, freshHome, run } from "../helpers/cli.js";

/** `start` as npm runs it: a child of `sh -c` (which does not exec it), ready once its banner is out. */
async function startUnderShell(env: NodeJS.ProcessEnv): Promise<{ shell: ChildProcess; server: number }> {
  const shell = spawn("sh", ["-c", '"$0" "$1" start; true', process.execPath, BIN], {
    env: { ...childEnv(), MARTECH_STEPS_PORT: "0", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let banner = "";
    shell.stderr?.on("data", (chunk) => {
      banner += chunk;
      if (/Press Ctrl-C/.test(banner)) resolve();
    });
    shell.once("exit", (code) => reject(new Error(`start exited (${code}): ${banner}`)));
  });
  const server = Number(
    execFileSync("ps", ["-o", "pid=", "--ppid", String(shell.pid)], { encoding: "utf8" }),
  );
  return { shell, server };
}

describe("start run by npm", () => {
  const servers: number[] = [];
  // SIGTERM first, as a user stops them: a detached sandbox then removes its temporary home, which
  // a SIGKILL would leave behind in the temp folder.
  afterEach(async () => {
    for (const pid of servers.splice(0)) {
      try {
        process.kill(pid, "SIGTERM");
        if (!(await exited(pid))) process.kill(pid, "SIGKILL");
      } catch {}
    }
  });

  it("stops when npm's shell is gone", async () => {
    const home = await freshHome("martech-npm-parent-");
    const { shell, server } = await startUnderShell({
      MARTECH_STEPS_HOME: home,
      npm_lifecycle_event: "start",
    });
    servers.push(server);
    shell.kill("SIGKILL");
    expect(await exited(server)).toBe(true);
  });

  it("a sandbox started with --detach under npm outlives the command that started it", async () => {
    const home = await freshHome("martech-npm-parent-");
    const detach = await run(["sandbox", "--detach"], {
      MARTECH_STEPS_HOME: home,
      npm_lifecycle_event: "sandbox",
    });
    expect(detach.code, detach.stderr).toBe(0);
    const pid = Number(/MARTECH_STEPS_SANDBOX_PID='?(\d+)/.exec(detach.stdout)?.[1]);
    expect(pid).toBeGreaterThan(0);
    servers.push(pid);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(() => process.kill(pid, 0)).not.toThrow();
  });

  it("runs on when started outside npm (a parent may leave on purpose)", async () => {
    const home = await freshHome("martech-npm-parent-");
    const { shell, server } = await startUnderShell({ MARTECH_STEPS_HOME: home });
    servers.push(server);
    shell.kill("SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(() => process.kill(server, 0)).not.toThrow();
  });
});
