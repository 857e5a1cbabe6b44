import { stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileCredentialStore } from "../../src/auth/credential-store.js";
import { run, userShell } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";

const shell = () => userShell("sandbox-unset-");

describe("after the sandbox stopped, in the shell that evaluated its exports", () => {
  it("refuses store commands with one line saying how to go back, and --unset undoes every export", async () => {
    const { cwd, env } = await shell();
    const script = [
      `cd "${cwd}"`,
      // The user's own Marketo connection, before the sandbox.
      "printf own-secret | martech-steps marketo configure --no-verify --client-id own-id --endpoint https://123-abc-456.mktorest.com",
      'before="$(env | cut -d= -f1 | sort)"',
      'exports="$(martech-steps sandbox --detach 2>/dev/null)"',
      'eval "$exports"',
      'kill "$MARTECH_STEPS_SANDBOX_PID"',
      'while kill -0 "$MARTECH_STEPS_SANDBOX_PID" 2>/dev/null; do sleep 0.1; done',
      'echo "--- show"; martech-steps marketo show 2>&1; echo "rc=$?"',
      'echo "--- exported"; printf "%s\\n" "$exports" | sed -n "s/^export \\([A-Z0-9_]*\\)=.*/\\1/p" | sort',
      'echo "--- unset"; martech-steps sandbox --unset',
      'eval "$(martech-steps sandbox --unset)"',
      'echo "--- left"; comm -13 <(printf "%s\\n" "$before") <(env | cut -d= -f1 | sort)',
      'echo "--- own"; martech-steps marketo show',
    ].join("\n");
    const result = await run(["-c", script], env, { command: ["bash"], timeoutMs: 60_000 });
    const part = (name: string) =>
      (
        new RegExp(`^--- ${name}\\n([\\s\\S]*?)(?=^--- |(?![\\s\\S]))`, "m").exec(result.stdout)?.[1] ?? ""
      ).trim();

    const shown = part("show").split("\n");
    expect(shown).toHaveLength(2);
    expect(shown[0]).toMatch(
      /^error: This shell still has the exports of a sandbox that has stopped \(MARTECH_STEPS_SANDBOX_PID \d+ is not running\).* eval "\$\(martech-steps sandbox --unset\)"/,
    );
    expect(shown[1]).toBe("rc=1");
    const exported = part("exported").split("\n");
    expect(exported).toContain("MARTECH_STEPS_SANDBOX_PID");
    const [unset, ...restored] = part("unset").split("\n");
    expect(unset!.split(" ").slice(1)).toEqual(expect.arrayContaining(exported));
    // The user's own MARTECH_STEPS_HOME, which the exports replaced, is put back (a path, not a secret).
    expect(restored).toEqual([`export MARTECH_STEPS_HOME=${env.MARTECH_STEPS_HOME}`]);
    // Nothing of the sandbox is left in the shell, and the user's own store is back.
    expect(part("left")).toBe("");
    expect(JSON.parse(part("own"))).toMatchObject({ source: "store", clientId: "own-id" });
  }, 60_000);

  it("the store never re-creates a sandbox's removed folder, even when the sandbox's pid was reused", async () => {
    const gone = join(await tempDir("sandbox-unset-"), "martech-steps-sandbox-AbC123");
    const store = new FileCredentialStore({ home: gone, env: {}, warn: () => undefined });
    expect(await store.read("default")).toEqual({ googleAccounts: {} });
    await expect(
      store.update("default", (current) => ({
        ...current,
        marketo: {
          clientId: "real-id",
          clientSecret: "real-secret",
          restEndpoint: "https://1-a.mktorest.com/rest",
        },
      })),
    ).rejects.toThrow(
      /belonged to a sandbox that has stopped and removed it: nothing is saved there\. Go back to your own configuration with: eval "\$\(martech-steps sandbox --unset\)"/,
    );
    await expect(stat(gone)).rejects.toThrow(/ENOENT/);
  });
});
