import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const execFileAsync = promisify(execFile);
const ROOT = new URL("..", import.meta.url).pathname;

/**
 * npm's complaints about this machine's own npmrc (keys npm 11 no longer knows), which say nothing
 * about the package: every other `npm warn` line fails the test.
 */
const MACHINE_CONFIG_WARNING = /^npm warn Unknown (user|global|env|project|builtin) config /;

function npmWarnings(stderr: string): string[] {
  return stderr
    .split("\n")
    .filter((line) => /^npm (warn|WARN)/.test(line) && !MACHINE_CONFIG_WARNING.test(line));
}

async function npm(args: string[], cwd: string) {
  return execFileAsync("npm", [...args, "--no-audit", "--no-fund"], {
    cwd,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
}

async function node(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  return execFileAsync(process.execPath, args, { cwd, env: { PATH: process.env.PATH, ...env } });
}

/**
 * The package as a consumer gets it: `npm pack` of the built dist/ (the suite builds first), installed
 * into an empty folder, then used by `import`, `require` and its bin, on the Node running the suite
 * (CI runs it on 20, 22 and 24).
 */
describe("the packed package, installed into an empty folder", () => {
  let work: string;
  let project: string;
  let installStderr = "";
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "martech-pack-"));
    project = join(work, "consumer");
    // dist/ is built by `npm test` before the suite: prepack would only build it again.
    const { stdout } = await npm(["pack", "--ignore-scripts", "--json", "--pack-destination", work], ROOT);
    const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
    await execFileAsync("mkdir", [project]);
    await writeFile(join(project, "package.json"), '{ "name": "consumer", "private": true }\n');
    ({ stderr: installStderr } = await npm(["install", "--prefer-offline", join(work, filename)], project));
  }, 240_000);
  afterAll(async () => rm(work, { recursive: true, force: true }));

  it("installs with no npm warning, and without echarts (bundled, only what the server draws)", () => {
    expect(npmWarnings(installStderr)).toEqual([]);
    expect(existsSync(join(project, "node_modules/martech-steps/LICENSE"))).toBe(true);
    expect(existsSync(join(project, "node_modules/echarts"))).toBe(false);
  });

  it("ships the licences of what its browser bundles contain, beside them (Apache-2.0 and MIT ask for it)", async () => {
    const installed = join(project, "node_modules/martech-steps/dist");
    const consoleLicences = await readFile(join(installed, "console-web/THIRD-PARTY-LICENSES.md"), "utf8");
    const viewLicences = await readFile(
      join(installed, "mcp-app/report-chart.THIRD-PARTY-LICENSES.md"),
      "utf8",
    );
    for (const text of [consoleLicences, viewLicences])
      for (const library of ["echarts", "zrender", "react"]) expect(text).toContain(`## ${library} - `);
    expect(viewLicences).toContain("## @modelcontextprotocol/ext-apps - ");
  });

  it("is imported as an ES module, with its manifest and package.json", async () => {
    const script = `
      const entry = await import("martech-steps");
      const { default: manifest } = await import("martech-steps/manifest.json", { with: { type: "json" } });
      const { default: pkg } = await import("martech-steps/package.json", { with: { type: "json" } });
      console.log(JSON.stringify([entry.TOOL_STEPS.length, entry.searchToolSteps("marketing automation")[0].id,
        manifest.steps.length, pkg.version]));`;
    const { stdout } = await node(["--input-type=module", "-e", script], project);
    const pkg = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(JSON.parse(stdout)).toEqual([5, "marketo_api_call", 5, pkg.version]);
  });

  it("is required from CommonJS (require(esm): the entry has no top-level await)", async () => {
    // require(esm) is on by default since Node 20.19 and 22.12; engines asks for 20.19 or newer.
    const script = `const entry = require("martech-steps");
      console.log(typeof entry.runToolStep, entry.TOOL_STEPS.length, require("martech-steps/package.json").name);`;
    const { stdout } = await node(["-e", script], project);
    expect(stdout.trim()).toBe("function 5 martech-steps");
  });

  it("runs its bin, and draws the Run Reports chart with the bundled ECharts and resvg", async () => {
    const bin = join(project, "node_modules/.bin/martech-steps");
    const pkg = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect((await node([bin, "--version"], project)).stdout.trim()).toBe(pkg.version);
    const home = join(work, "home");
    const input = JSON.stringify({
      account: "sandbox",
      property: "412345671",
      metrics: ["sessions"],
      dimensions: ["date"],
      chart: true,
    });
    const { stdout } = await node(
      [bin, "call", "--sandbox", "google_analytics_run_reports", "--input", input],
      project,
      { MARTECH_STEPS_HOME: home },
    );
    expect((JSON.parse(stdout) as { rows: unknown[] }).rows.length).toBeGreaterThan(0);
  }, 60_000);

  it("ships Run Reports' MCP App view, and serves it from the installed package", async () => {
    // The module the MCP server registers the resource with, from where npm installed it, on a recording server.
    const module = join(project, "node_modules/martech-steps/dist/mcp/report-chart-app.js");
    const script = `
      const { registerReportChartApp } = await import(${JSON.stringify(module)});
      let read;
      registerReportChartApp({ registerResource: (name, uri, meta, callback) => { read = callback; } },
        [{ name: "google_analytics_run_reports" }]);
      const { contents: [content] } = await read(new URL("ui://martech-steps/report-chart"));
      console.log(JSON.stringify([content.mimeType, content.text.slice(0, 15), content.text.length]));`;
    const { stdout } = await node(["--input-type=module", "-e", script], project);
    const [mimeType, start, length] = JSON.parse(stdout) as [string, string, number];
    expect([mimeType, start.toLowerCase()]).toEqual(["text/html;profile=mcp-app", "<!doctype html>"]);
    expect(length).toBeGreaterThan(100_000);
  });
});
