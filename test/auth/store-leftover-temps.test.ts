import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, readdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileCredentialStore } from "../../src/auth/credential-store.js";
import { tempDir } from "../helpers/temp.js";

/** The pid of a process that has exited: a writer killed with kill -9. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid as number;
}

/** A temporary file written `ms` ago. */
async function aged(path: string, ms: number): Promise<void> {
  await writeFile(path, "sealed", { mode: 0o600 });
  const then = new Date(Date.now() - ms);
  await utimes(path, then, then);
}

describe("temporary files of a writer killed mid-write", () => {
  it("are swept at the next write, those of a live process kept", async () => {
    const home = await tempDir("martech-temps-");
    const folder = join(home, "workspaces");
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const dead = await deadPid();
    const live = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    try {
      const orphans = [`default.json.${dead}.0badf00d.tmp`, `acme.json.${dead}.deadbeef.tmp`];
      const writing = `default.json.${live.pid}.cafebabe.tmp`;
      for (const name of [...orphans, writing]) await aged(join(folder, name), 120_000);
      // No check() first: a server that started before the kill never runs it again.
      const store = new FileCredentialStore({ home, key: randomBytes(32) });
      await store.update("default", (s) => ({ ...s, googleClient: { clientId: "c", clientSecret: "s" } }));
      const left = await readdir(folder);
      for (const orphan of orphans) expect(left).not.toContain(orphan);
      expect(left).toContain(writing);
      expect(left).toContain("default.json");
    } finally {
      live.kill("SIGKILL");
    }
  });

  it("a young one is kept whatever its pid (a writer in another container or host), an old one is swept even if its pid runs again", async () => {
    const home = await tempDir("martech-temps-");
    const folder = join(home, "workspaces");
    await mkdir(folder, { recursive: true, mode: 0o700 });
    // Another host's writer: its pid means nothing here, its file was written a moment ago.
    const otherHost = `acme.json.${await deadPid()}.0badf00d.tmp`;
    await aged(join(folder, otherHost), 1_000);
    // A leftover of hours ago whose pid now names a running process (our parent): pids are reused.
    const reused = `beta.json.${process.ppid}.deadbeef.tmp`;
    await aged(join(folder, reused), 2 * 60 * 60_000);
    const store = new FileCredentialStore({ home, key: randomBytes(32) });
    await store.update("default", (s) => ({ ...s, googleClient: { clientId: "c", clientSecret: "s" } }));
    const left = await readdir(folder);
    expect(left).toContain(otherHost);
    expect(left).not.toContain(reused);
  });
});
