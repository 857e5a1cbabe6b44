import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cruise, type ICruiseResult } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The floor plan (.dependency-cruiser.cjs, docs/ARCHITECTURE.md, "The floors") holds: no import runs up a floor,
 * no adapter imports a sibling adapter, no import loops, the sandbox stays a separate program, the browser bundle imports only the modules declared shared.
 * The second test proves the check can fail: the same rules find every up-arrow of a fixture tree.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CONFIG = join(ROOT, ".dependency-cruiser.cjs");

async function cruiseTree(baseDir: string): Promise<ICruiseResult> {
  const options = await extractDepcruiseOptions(CONFIG);
  const { output } = await cruise(
    ["src", "console/src"],
    { ...options, baseDir, validate: true },
    undefined,
    { tsConfig: extractTSConfig(join(ROOT, "tsconfig.json")) },
  );
  if (typeof output === "string") throw new Error("dependency-cruiser answered text, not a result");
  return output;
}

/** Each violation as "rule: from → to", sorted. */
function violations(result: ICruiseResult): string[] {
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
}

describe("the import boundaries", () => {
  it("hold in src/ and the browser bundle: no arrow runs up", async () => {
    const result = await cruiseTree(ROOT);
    expect(violations(result)).toEqual([]);
    // A check that resolved nothing would pass vacuously: every relative import must have been followed.
    const unresolved = result.modules.flatMap((module) =>
      module.dependencies
        .filter((dependency) => dependency.couldNotResolve && dependency.module.startsWith("."))
        .map((dependency) => `${module.source} → ${dependency.module}`),
    );
    expect(unresolved).toEqual([]);
    expect(result.summary.totalCruised).toBeGreaterThan(200);
  }, 120_000);

  describe("fail on a fixture tree with arrows running up", () => {
    const dir = mkdtempSync(join(tmpdir(), "martech-boundaries-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };

    it("names every up-arrow with its rule, and nothing that points down", async () => {
      file("src/workspace.ts", 'export const DEFAULT_WORKSPACE = "default";\n');
      file("src/tools/step.ts", "export const step = 1;\n");
      file("src/connections/marketo/index.ts", "export interface Connection { kind: string }\n");
      file("src/connections/marketo/build.ts", "export const build = () => 1;\n");
      file("src/sandbox/index.ts", "export const sandbox = 1;\n");
      file("src/errors.ts", "export const e = 1;\n");
      // Up: the ground floor reads the workspace.
      file(
        "src/deadline.ts",
        'import { DEFAULT_WORKSPACE } from "./workspace.js";\nexport const d = DEFAULT_WORKSPACE;\n',
      );
      // A module the browser shares reaches one it does not (the bundle would carry it).
      file("src/tools/input/words.ts", 'import { step } from "../step.js";\nexport const words = step;\n');
      // Up: a connector reaches a tool step.
      file(
        "src/connectors/marketo/http.ts",
        'import { step } from "../../tools/step.js";\nexport const h = step;\n',
      );
      // Up, type-only: types tie floors together too.
      file(
        "src/auth/store-core.ts",
        'import type { Connection } from "../connections/marketo/index.js";\nexport type C = Connection;\n',
      );
      // The metrics seam is a ground-floor leaf (src/telemetry.ts); every module of ops/ is an adapter's.
      file("src/telemetry.ts", "export const telemetry = 1;\n");
      file("src/ops/telemetry.ts", "export const opsTelemetry = 1;\n");
      file(
        "src/connectors/marketo/limits.ts",
        'import { telemetry } from "../../telemetry.js";\nimport { opsTelemetry } from "../../ops/telemetry.js";\nexport const l = [telemetry, opsTelemetry];\n',
      );
      // A tool step may see a connection's types, not its code.
      file(
        "src/tools/run.ts",
        'import type { Connection } from "../connections/marketo/index.js";\nimport { build } from "../connections/marketo/build.js";\nexport const r: Connection | number = build();\n',
      );
      // Only the CLI starts the sandbox, and the sandbox does not import the package it emulates.
      file("src/host/http.ts", 'import { sandbox } from "../sandbox/index.js";\nexport const m = sandbox;\n');
      file(
        "src/cli/sandbox.ts",
        'import { sandbox } from "../sandbox/index.js";\nexport const c = sandbox;\n',
      );
      file("src/sandbox/marketo.ts", 'import { step } from "../tools/step.js";\nexport const s = step;\n');
      // The browser bundle imports a shared module (allowed) and the workspace (not).
      file(
        "console/src/App.tsx",
        'import { words } from "../../src/tools/input/words.ts";\nimport { DEFAULT_WORKSPACE } from "../../src/workspace.ts";\nexport const a = [words, DEFAULT_WORKSPACE];\n',
      );
      // Node's modules, by either name, do not exist in a browser; zod is the server's validator.
      file(
        "console/src/Leak.ts",
        'import { readFileSync } from "fs";\nimport { join } from "node:path";\nimport { z } from "zod";\nexport const l = [readFileSync, join, z];\n',
      );
      // A new top-level module must be placed on a floor.
      file("src/stray.ts", 'import { e } from "./errors.js";\nexport const s = e;\n');
      // The host composes the adapters (down); an adapter imports neither the host (up) nor a sibling adapter.
      file("src/web/node-bridge.ts", "export const bridge = 1;\n");
      file(
        "src/host/app.ts",
        'import { o } from "../ops/routes.js";\nimport { c } from "../console/app.js";\nexport const h = [o, c];\n',
      );
      file(
        "src/console/app.ts",
        'import { bridge } from "../web/node-bridge.js";\nimport { o } from "../ops/routes.js";\nexport const c = [bridge, o];\n',
      );
      file("src/mcp/server.ts", 'import { h } from "../host/app.js";\nexport const s = h;\n');
      // An import loop, even of types only, between two modules of one floor.
      file("src/tools/a.ts", 'import type { B } from "./b.js";\nexport type A = { b?: B };\n');
      file("src/tools/b.ts", 'import type { A } from "./a.js";\nexport type B = { a?: A };\n');
      // Down: an adapter reads the workspace and a tool.
      file(
        "src/ops/routes.ts",
        'import { DEFAULT_WORKSPACE } from "../workspace.js";\nimport { step } from "../tools/step.js";\nexport const o = [DEFAULT_WORKSPACE, step];\n',
      );

      expect(violations(await cruiseTree(dir))).toEqual([
        "browser-imports-shared-only: console/src/App.tsx → src/workspace.ts",
        "every-module-has-a-floor: src/stray.ts → src/errors.ts",
        "no-circular: src/tools/a.ts → src/tools/b.ts",
        "no-sibling-adapters: src/console/app.ts → src/ops/routes.ts",
        "no-up-from-adapters: src/mcp/server.ts → src/host/app.ts",
        "no-up-from-auth-state-results: src/auth/store-core.ts → src/connections/marketo/index.ts",
        "no-up-from-connectors: src/connectors/marketo/http.ts → src/tools/step.ts",
        "no-up-from-connectors: src/connectors/marketo/limits.ts → src/ops/telemetry.ts",
        "no-up-from-ground: src/deadline.ts → src/workspace.ts",
        "only-the-cli-starts-the-sandbox: src/host/http.ts → src/sandbox/index.ts",
        "sandbox-is-a-separate-program: src/sandbox/marketo.ts → src/tools/step.ts",
        "shared-has-no-node: console/src/Leak.ts → fs",
        "shared-has-no-node: console/src/Leak.ts → path",
        "shared-has-no-zod: console/src/Leak.ts → zod",
        "shared-stays-shared: src/tools/input/words.ts → src/tools/step.ts",
        "tools-see-connection-types-only: src/tools/run.ts → src/connections/marketo/build.ts",
      ]);
    }, 120_000);
  });
});
