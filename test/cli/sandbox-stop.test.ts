/**
 * `eval "$(martech-steps sandbox --unset)"` is the whole stop sequence: it stops the shell's detached
 * sandbox and waits until it has exited; while a sandbox stops (its folder gone, its process still
 * there), store commands refuse instead of showing an empty store; a pid that is not the sandbox's is
 * never signalled.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { run, userShell } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";

const shell = () => userShell("sandbox-stop-");

/** A process that is not a sandbox, as one that took over a dead sandbox's pid would be. */
const bystanders: ChildProcess[] = [];
function bystander(): number {
  const child = spawn("sleep", ["60"], { stdio: "ignore" });
  bystanders.push(child);
  return child.pid!;
}
afterEach(() => {
  for (const child of bystanders.splice(0)) child.kill("SIGKILL");
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("stopping the sandbox", () => {
  it("--unset stops the detached sandbox, waits until it has exited, then undoes its exports", async () => {
    const { cwd, env } = await shell();
    const script = [
      `cd "${cwd}"`,
      'eval "$(martech-steps sandbox --detach 2>/dev/null)"',
      'pid="$MARTECH_STEPS_SANDBOX_PID"; home="$MARTECH_STEPS_HOME"',
      "martech-steps accounts list >/dev/null && echo listed",
      'eval "$(martech-steps sandbox --unset)"',
      // Right after the one command: the process is gone, its folder too, and the shell is back.
      // An exited process not yet collected by its new parent (a zombie, state Z) has stopped too.
      'state="$(sed "s/.*) //" "/proc/$pid/stat" 2>/dev/null | cut -c1)"',
      '[ -z "$state" ] || [ "$state" = Z ] && echo "exited" || echo "still running: $state"',
      '[ -e "$home" ] && echo "folder left" || echo "folder gone"',
      'echo "pid=$([ -n "$MARTECH_STEPS_SANDBOX_PID" ] && echo set || echo unset) home=$MARTECH_STEPS_HOME"',
    ].join("\n");
    const result = await run(["-c", script], env, { command: ["bash"], timeoutMs: 60_000 });
    expect(result.stderr).toMatch(/^Stopped the sandbox \(pid \d+\)\.$/m);
    expect(result.stdout.trim().split("\n")).toEqual([
      "listed",
      "exited",
      "folder gone",
      `pid=unset home=${env.MARTECH_STEPS_HOME}`,
    ]);
  }, 60_000);

  it("while a sandbox stops (its folder gone, its process alive), accounts list refuses instead of printing []", async () => {
    const home = join(await tempDir("sandbox-stop-"), "martech-steps-sandbox-Gone12");
    const pid = bystander();
    const result = await run(["accounts", "list"], {
      MARTECH_STEPS_HOME: home,
      MARTECH_STEPS_SANDBOX_PID: String(pid),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: The sandbox of this shell \\(MARTECH_STEPS_SANDBOX_PID ${pid}\\) is stopping: .* eval "\\$\\(martech-steps sandbox --unset\\)"`,
      ),
    );
  });

  it("--unset never signals a pid its sandbox folder does not name (a pid reused by another process)", async () => {
    const home = await tempDir("martech-steps-sandbox-");
    const pid = bystander();
    await writeFile(join(home, "sandbox.pid"), `${pid + 1}\n`);
    const result = await run(["sandbox", "--unset"], {
      MARTECH_STEPS_HOME: home,
      MARTECH_STEPS_SANDBOX_PID: String(pid),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^unset .*MARTECH_STEPS_SANDBOX_PID/);
    expect(alive(pid)).toBe(true);
  });
});
