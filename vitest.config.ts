import { configDefaults, defineConfig } from "vitest/config";

const jsonReport = process.env.VITEST_JSON_REPORT;

/**
 * Tests that assert a share of a rate window measure time: they run after every other file, one at
 * a time, so the suite's own load (two cores, other files' servers) is not what they measure.
 * https://vitest.dev/guide/recipes/parallel-sequential
 */
const alone = ["test/e2e/replicas.test.ts", "test/connectors/marketo/replicas-redis.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // CI also writes a JSON report, from which .ci/run prints "N passed, N failed".
    reporters: jsonReport ? ["default", ["json", { outputFile: jsonReport }]] : ["default"],
    projects: [
      {
        extends: true,
        test: {
          name: "suite",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...alone],
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
