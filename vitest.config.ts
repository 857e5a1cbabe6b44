import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

const jsonReport = process.env.VITEST_JSON_REPORT;

/**
 * Tests that assert a share of a rate window measure time: they run after every other file, one at
 * a time, so the suite's own load (two cores, other files' servers) is not what they measure.
 * https://vitest.dev/guide/recipes/parallel-sequential
 */
const alone = [
  "test/e2e/replicas.test.ts",
  "test/connectors/marketo/replicas-redis.test.ts",
  // Stops a master of a cluster of its own during a burst: its calls' deadlines are not the suite's load.
  // Only a Redis Cluster's test: not collected where the cluster's cases are off (.ci/run's later Nodes;
  // test/helpers/redis-backends.ts), since a skipped test fails CI and a file without tests fails vitest.
  ...(process.env.MARTECH_TEST_CLUSTER === "off" ? [] : ["test/e2e/cluster-failover.test.ts"]),
];

/**
 * The browser tests drive the same console bundle in the same Chromium on every Node; what a Node changes
 * under them (the HTTP server, the steps) has tests of its own on each. So .ci/run's later Nodes
 * (MARTECH_TEST_BROWSER=smoke) collect only these of them: a marketer's whole journey, sign-in, the MCP App
 * view and the replicas; the rest run once, on the first Node (the clean-clone CI took 55 minutes of its 60
 * with all of them on each).
 */
const browserSmoke = new Set([
  "test/e2e/console-login.test.ts",
  "test/e2e/console-marketer.test.ts",
  "test/e2e/mcp-app.test.ts",
  "test/e2e/replicas.test.ts",
]);
const browserOnce =
  process.env.MARTECH_TEST_BROWSER === "smoke"
    ? readdirSync("test/e2e")
        .map((name) => `test/e2e/${name}`)
        .filter((path) => path.endsWith(".test.ts") && !browserSmoke.has(path))
    : [];

/**
 * The files that drive the MCP server in process (test/mcp) share one module registry per worker (isolate:
 * false): each spent about 2 of its 3 s importing the server again, and test/mcp took 365 s with isolation,
 * 176 s without. A file that replaces modules (vi.mock, vi.doMock, vi.resetModules) would leave them replaced
 * for the next, so it keeps its own. Elsewhere files keep theirs: without, nock's interceptors and the
 * sandboxes' harnesses of one file broke the next (test/connectors, test/sandbox, test/tools), and the
 * browser tests keep their pages on globalThis. https://vitest.dev/config/isolate
 */
const keepOwnModules = new Set([
  // These failed when another file ran before them in the same process (a GA property another file created
  // was listed, an account label, the authorization server's per-address limits, a fetch count, a note given
  // once): some module keeps state per process (not traced). Found by shuffled runs (vitest --sequence.shuffle).
  "test/mcp/mcp-marketo.test.ts",
  "test/mcp/mcp-google.test.ts",
  "test/mcp/oauth-store-caps.test.ts",
  "test/mcp/oauth-guarded-fetch.test.ts",
  "test/mcp/ga-several-properties.test.ts",
  "test/mcp/ga-second-totals.test.ts",
  "test/mcp/marketo-lead-fields.test.ts",
]);
const sharingModules = readdirSync("test/mcp")
  .map((name) => `test/mcp/${name}`)
  .filter((path) => path.endsWith(".test.ts") && !keepOwnModules.has(path))
  .filter((path) => !/\bvi\.(mock|doMock|resetModules)\(/.test(readFileSync(path, "utf8")));

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits 1 s by default: a browser test's picker or card that a loaded CI machine draws in 2 s
    // failed there though right. Waiting longer for a right answer never passes a wrong one: a poll still
    // fails if the value never comes. https://vitest.dev/config/expect#expect-poll
    expect: { poll: { timeout: 10_000 } },
    pool: "forks",
    // vitest runs cores - 1 files at once: one on a two-core machine, which then idles while a file waits on
    // the processes, servers and browser it started. Two at least. https://vitest.dev/config/maxworkers
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Each file works in a temp folder of its own and fails if it leaves anything there or writes on
    // stderr unannounced (test/helpers/setup-file.ts); the run's folder is made and removed here.
    // https://vitest.dev/config/globalsetup, https://vitest.dev/config/setupfiles
    globalSetup: ["test/helpers/global-setup.ts"],
    setupFiles: ["test/helpers/setup-file.ts"],
    // CI also writes a JSON report, from which .ci/run prints "N passed, N failed".
    reporters: jsonReport ? ["default", ["json", { outputFile: jsonReport }]] : ["default"],
    projects: [
      {
        extends: true,
        test: {
          name: "suite",
          include: ["test/**/*.test.ts"],
          exclude: [
            ...configDefaults.exclude,
            ...alone,
            ...browserOnce,
            "test/e2e/cluster-failover.test.ts",
            ...sharingModules,
          ],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "shared",
          include: sharingModules,
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: "alone", include: alone, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
