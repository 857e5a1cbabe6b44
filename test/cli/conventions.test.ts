/**
 * The CLI's conventions: usage errors exit 2 (the README: "2 for invalid input"), help and version
 * exit 0, `--help` shows examples and `call --help` the step ids it takes.
 */
import { describe, expect, it } from "vitest";
import { TOOL_STEPS } from "../../src/tools/registry.js";
import { freshHome, run } from "../helpers/cli.js";

describe("CLI conventions", () => {
  it.each([
    [["frobnicate"], /^error: unknown command 'frobnicate'/],
    [["serch", "marketing"], /^error: unknown command 'serch'\n\(Did you mean search\?\)/],
    [["search", "--jsno", "x"], /^error: unknown option '--jsno'/],
    [["--verbose"], /^error: unknown option '--verbose'/],
    [["serve", "--port"], /^error: option '--port <port>' argument missing/],
    [["marketo", "configure", "--endpoint"], /^error: option '--endpoint <url>' argument missing/],
    [["sandbox", "--unset", "--detach"], /^error: option '--unset' cannot be used with option '--detach'/],
  ])("%j is a usage error: exit 2, one error line, nothing on stdout", async (args, message) => {
    const result = await run(args, { MARTECH_STEPS_HOME: await freshHome("martech-usage-") });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe("");
  });

  it("--help shows examples and exits 0; --version exits 0", async () => {
    const help = await run(["--help"], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/\nExamples:\n {2}\$ martech-steps start/);
    expect(help.stdout).toContain("martech-steps call --sandbox google_analytics_run_reports");
    const version = await run(["--version"], {});
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it.each([[["call", "--help"]], [["help", "call"]]])(
    "%j lists every step id, with examples",
    async (args) => {
      const help = await run(args, {});
      expect(help.code).toBe(0);
      const listed = help.stdout.split("Tool steps (<step-id>):\n")[1] ?? "";
      for (const step of TOOL_STEPS)
        expect(listed).toMatch(new RegExp(`^ {2}${step.id} +${step.title}$`, "m"));
      expect(listed).toMatch(/\nExamples:\n {2}\$ martech-steps call --sandbox marketo_api_call/);
    },
  );
});
