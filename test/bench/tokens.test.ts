/**
 * `npm run bench -- --only=tokens` prints the token-cost table: the tool list once and, per task, the
 * tokens of this package's answer and of the raw API JSON, all counted (nothing hard-coded).
 */
import { join } from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { TASKS } from "../../bench/rows/tokens.js";
import { run } from "../helpers/cli.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const TSX = join(ROOT, "node_modules", ".bin", "tsx");

describe("npm run bench --only=tokens", () => {
  it("prints the tool list and each task's tokens, ours against raw, with their ratio", async () => {
    const result = await run(
      ["bench/run.ts", "--smoke", "--only=tokens"],
      { HOME: process.env.HOME },
      {
        command: [TSX],
        timeoutMs: 120_000,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("Token cost (o200k_base, gpt-tokenizer)");
    const cells = (name: string) =>
      result.stdout
        .split("\n")
        .find((line) => line.startsWith(`| ${name}`))
        ?.split(" | ")
        .map((cell) => cell.replace(/^\| |\s*\|$/g, ""));
    const list = cells("tools/list");
    expect(list?.[0]).toMatch(/^tools\/list \((\d+) tokens, loaded once\)$/);
    expect(Number(/\((\d+) tokens/.exec(list?.[0] ?? "")?.[1])).toBeGreaterThan(1000);
    let ours = Number(/\((\d+) tokens/.exec(list?.[0] ?? "")?.[1]);
    let raw = 0;
    for (const task of TASKS) {
      const [, mine, theirs, ratio] = cells(task.name) ?? [];
      const [a, b] = [mine, theirs].map((cell) => Number(/\((\d+)\)$/.exec(cell ?? "")?.[1]));
      expect(a, task.name).toBeGreaterThan(0);
      expect(b, task.name).toBeGreaterThan(0);
      expect(Number(ratio)).toBeCloseTo((a as number) / (b as number), 2);
      ours += a as number;
      raw += b as number;
    }
    const total = cells("all tasks, tool list included");
    expect(total?.[1]).toMatch(new RegExp(`\\(${ours}\\)$`));
    expect(total?.[2]).toMatch(new RegExp(`\\(${raw}\\)$`));
  }, 150_000);

  it("counts with the o200k_base encoding", () => {
    // A known count: o200k_base encodes "hello world" as two tokens.
    expect(countTokens("hello world")).toBe(2);
  });
});
