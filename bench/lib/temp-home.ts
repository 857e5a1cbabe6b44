import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh MARTECH_STEPS_HOME for a row, removed when the bench exits (a run leaves no temp folder). */
export function benchHome(): string {
  const home = mkdtempSync(join(tmpdir(), "martech-bench-"));
  process.once("exit", () => rmSync(home, { recursive: true, force: true }));
  return home;
}
