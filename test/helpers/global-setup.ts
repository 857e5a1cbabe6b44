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
 * One fresh temp folder per run (https://vitest.dev/config/globalsetup). Each test file works in a
 * folder of its own inside it and fails if it leaves anything there (test/helpers/setup-file.ts);
 * what is left beside those folders at the end fails the run, and the folder is removed.
 */
export default function setup(project: TestProject): () => void {
  const root = mkdtempSync(join(tmpdir(), "martech-steps-tests-"));
  project.provide("tempRoot", root);
  // Processes started by this one (none today) and files of no test file land here too.
  process.env.TMPDIR = root;
  return () => {
    const left = readdirSync(root);
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    if (left.length > 0) throw new Error(`the test run left in its temp folder: ${left.join(", ")}`);
  };
}
