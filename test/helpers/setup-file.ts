import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, expect, inject } from "vitest";
import { catchStderr, takeUnexpectedStderr } from "./stderr.js";
import { removeTempDirs } from "./temp.js";

/**
 * Runs before every test file (vitest's setupFiles): the file gets a temp folder of its own as
 * TMPDIR (os.tmpdir() and the processes it starts with its environment use it), and fails if
 * anything is left in it after its own clean-up, or if one of its tests writes on stderr unannounced.
 * Both are assertions, so they show in the counts and name the file or the test.
 */
const fileTemp = mkdtempSync(join(inject("tempRoot"), "f-"));
process.env.TMPDIR = fileTemp;
catchStderr();

afterEach(async ({ task }) => {
  // A failing test that has a browser open records its page (test/helpers/browser.ts).
  const record = (globalThis as { recordFailedPages?: (test: string) => Promise<void> }).recordFailedPages;
  if (task.result?.state === "fail" && record) await record(task.fullName ?? task.name);
  expect(takeUnexpectedStderr(), "lines written on stderr during this test (allowStderr)").toEqual([]);
});

afterAll(async () => {
  await removeTempDirs();
  // tsx keeps its compile cache in the temp folder (tsx-<uid>) for the processes that run a .ts file, and the
  // CLI keeps Node's there on Node 22 and later (node-compile-cache, src/cli/main.ts); both go with the folder.
  const left = readdirSync(fileTemp).filter((name) => !/^(tsx-\d+|node-compile-cache)$/.test(name));
  // A process a test started may still be writing its compile cache as it exits (ENOTEMPTY): retry with
  // Node's linear backoff, up to about 5 s.
  rmSync(fileTemp, { recursive: true, force: true, maxRetries: 10 });
  expect(left, "left in the temp folder by this file's tests or the processes they started").toEqual([]);
  expect(takeUnexpectedStderr(), "lines written on stderr after the last test").toEqual([]);
});
