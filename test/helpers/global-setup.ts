import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's own temp folder: each test file gets a folder in it as its TMPDIR. */
    tempRoot: string;
  }
}

/**
 * One fresh temp folder per run and project (https://vitest.dev/config/globalsetup). Each test file
 * works in a folder of its own inside it and fails if it leaves anything there
 * (test/helpers/setup-file.ts); what is left beside those folders at the end fails the run, and the
 * folder is removed.
 */
export default function setup(project: TestProject): () => void {
  // Short names: Chromium puts a Unix socket in the temp folder, and its path must fit in 108 bytes.
  const root = mkdtempSync(join(tmpdir(), "mst-run-"));
  project.provide("tempRoot", root);
  return () => {
    // A file whose every test was skipped (Redis tests without REDIS_URL, off CI) runs no afterAll, so its
    // empty folder stays: only what is in one, or beside them, was left by a test.
    const left = readdirSync(root).filter(
      (name) => !(name.startsWith("f-") && readdirSync(join(root, name)).length === 0),
    );
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    if (left.length > 0) throw new Error(`the test run left in its temp folder: ${left.join(", ")}`);
  };
}
