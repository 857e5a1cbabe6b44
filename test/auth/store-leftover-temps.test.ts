import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileCredentialStore } from "../../src/auth/credential-store.js";

/** The pid of a process that has exited: a writer killed with kill -9. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid as number;
}

describe("temporary files of a writer killed mid-write", () => {
  it("are swept at the next write, those of a live process kept", async () => {
    const home = await mkdtemp(join(tmpdir(), "martech-temps-"));
    const folder = join(home, "workspaces");
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const dead = await deadPid();
    const live = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    try {
      const orphans = [`default.json.${dead}.0badf00d.tmp`, `acme.json.${dead}.deadbeef.tmp`];
      const writing = `default.json.${live.pid}.cafebabe.tmp`;
      for (const name of [...orphans, writing])
        await writeFile(join(folder, name), "sealed", { mode: 0o600 });
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
});
