// Checks expected-failures.yml against the results of every revision's run, for .ci/conformance:
//   node check-baseline.mjs expected-failures.yml results-2025-11-25 results-2026-07-28
//   node check-baseline.mjs --role authorization expected-failures.yml results-authorization
// The suite checks each server run on its own, so an entry for a scenario that one revision does not run is
// never judged there, and an entry for a scenario that no revision runs (renamed, or dropped from
// the suite) or a per-check entry whose check no longer appears is never judged at all. Here every
// entry must still fail in at least one run: a scenario with a FAILURE or WARNING check, or a
// "<scenario>:<check-id>" whose check has that status. A WARNING counts as not passing, as in the
// suite's own baseline check (an unlisted scenario that only warns fails the run there).
// `conformance authorization` takes no expected-failures file (0.2.0-alpha.12), and a warning does not fail
// it: with --role authorization this check also fails on any FAILURE or WARNING check that the file's
// `authorization:` list does not name, so those runs keep the same discipline.
// Run with the suite's Node and from its folder, so that "yaml" is the suite's own dependency.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

const args = process.argv.slice(2);
const role = args[0] === "--role" ? args[1] : "server";
const [baselinePath, ...resultDirs] = args[0] === "--role" ? args.slice(2) : args;
if (!baselinePath || resultDirs.length === 0 || (role !== "server" && role !== "authorization")) {
  console.error(
    "usage: check-baseline.mjs [--role server|authorization] <expected-failures.yml> <results-dir>...",
  );
  process.exit(2);
}
const entries = (parse(readFileSync(baselinePath, "utf8"))?.[role] ?? []).map(String);
// The suite names each result folder after the role it tested: server-… or authorization-server-….
const prefix = role === "server" ? /^server-/ : /^authorization-server-/;
const failing = (check) => check.status === "FAILURE" || check.status === "WARNING";

/** scenario → the checks of each run it ran in. */
const runs = new Map();
for (const dir of resultDirs) {
  for (const name of readdirSync(dir)) {
    // The suite names each folder <role>-<scenario>-<timestamp>, e.g. server-ping-2026-01-02T03-04-05-678Z.
    const scenario = name.replace(prefix, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
    const checks = JSON.parse(readFileSync(join(dir, name, "checks.json"), "utf8"));
    runs.set(scenario, [...(runs.get(scenario) ?? []), checks]);
  }
}

const stale = [];
for (const entry of entries) {
  const colon = entry.indexOf(":");
  const scenario = colon === -1 ? entry : entry.slice(0, colon);
  const checkId = colon === -1 ? undefined : entry.slice(colon + 1);
  const ran = runs.get(scenario) ?? [];
  const stillFails = ran.some((checks) =>
    checks.some((check) => failing(check) && (checkId === undefined || check.id === checkId)),
  );
  if (ran.length === 0) stale.push(`${entry}: no revision ran this scenario`);
  else if (!stillFails)
    stale.push(
      `${entry}: ${checkId ? "this check" : "it"} neither failed nor warned in any revision that ran it`,
    );
}

// Failures the suite itself does not judge against the file (authorization runs): each must be listed.
const unexpected = [];
if (role === "authorization") {
  for (const [scenario, ran] of runs) {
    for (const check of ran.flat().filter(failing)) {
      if (!entries.includes(scenario) && !entries.includes(`${scenario}:${check.id}`))
        unexpected.push(`${scenario}:${check.id}: ${check.status} ${check.errorMessage ?? ""}`.trim());
    }
  }
}
if (unexpected.length > 0) {
  console.error(`\nFailures or warnings not listed in ${baselinePath} (${role}):`);
  for (const line of unexpected) console.error(`  ✗ ${line}`);
}

if (stale.length > 0) {
  console.error(`\nStale entries in ${baselinePath} (remove them, or say why they are expected):`);
  for (const line of stale) console.error(`  ✓ ${line}`);
  process.exit(1);
}
if (unexpected.length > 0) process.exit(1);
console.log(
  `\nEvery one of the ${entries.length} ${role} entries of ${baselinePath} still fails or warns in some run.`,
);
