/**
 * The whole service-account flow in a user's shell, offline: the sandbox writes a service account's
 * key file (its banner says where and how to import it), `accounts import --key-file` stores it,
 * a report runs as the service account, and neither the listing nor any output shows the key.
 */
import { describe, expect, it } from "vitest";
import { run, userShell } from "../helpers/cli.js";

describe("accounts import --key-file against the sandbox", () => {
  it("imports the sandbox's service account key and runs a report with it", async () => {
    const { cwd, env } = await userShell("service-account-");
    const input = JSON.stringify({
      property: "412345671",
      metrics: ["sessions"],
      dimensions: ["date"],
      account: "reporter",
    });
    const script = [
      `cd "${cwd}"`,
      'eval "$(martech-steps sandbox --detach 2>/dev/null)"',
      'key="$MARTECH_STEPS_HOME/service-account-key.json"',
      'echo "--- import"; martech-steps accounts import --label reporter --key-file "$key" 2>&1; echo "rc=$?"',
      // The same account imported again, under another label, replaces its key: one entry (src/auth/google/records.ts sameAccount).
      'echo "--- again"; martech-steps accounts import --label again --key-file "$key" 2>&1; echo "rc=$?"',
      'echo "--- list"; martech-steps accounts list',
      `echo "--- report"; martech-steps call google_analytics_run_reports --input '${input}' 2>&1; echo "rc=$?"`,
      `echo "--- secret"; node -e 'const k = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(k.private_key.split(String.fromCharCode(10))[1].slice(0, 40))' "$key"`,
      'kill "$MARTECH_STEPS_SANDBOX_PID"',
      'while kill -0 "$MARTECH_STEPS_SANDBOX_PID" 2>/dev/null; do sleep 0.1; done',
      'eval "$(martech-steps sandbox --unset)"',
    ].join("\n");
    const result = await run(["-c", script], env, { command: ["bash"], timeoutMs: 90_000 });
    const part = (name: string) =>
      (
        new RegExp(`^--- ${name}\\n([\\s\\S]*?)(?=^--- |(?![\\s\\S]))`, "m").exec(result.stdout)?.[1] ?? ""
      ).trim();

    const email = "sandbox-reporter@sandbox-project.iam.gserviceaccount.com";
    expect(part("import")).toContain(`Imported "reporter" (${email}).`);
    expect(part("import")).toContain(`Google Analytics sees it as ${email}: add that email to each property`);
    expect(part("import")).toMatch(/rc=0$/);
    expect(part("again")).toContain(
      `${email} was already connected as "reporter"; its key was replaced (one entry per Google account).`,
    );
    expect(part("again")).toMatch(/rc=0$/);
    const listed = JSON.parse(part("list")) as { label: string; serviceAccount?: string }[];
    expect(listed).toContainEqual(expect.objectContaining({ label: "reporter", serviceAccount: email }));
    expect(listed.filter((account) => account.serviceAccount === email)).toHaveLength(1);
    const report = part("report");
    expect(report).toMatch(/rc=0$/);
    expect(report).toMatch(/Report on .+ \(properties\/412345671\) for .+: \d+ rows/);
    // The private key's first line is in the key file, and in nothing the commands printed.
    const secret = part("secret");
    expect(secret).toMatch(/^[A-Za-z0-9+/]{40}$/);
    expect(result.stdout.split("--- secret")[0]).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }, 90_000);
});
