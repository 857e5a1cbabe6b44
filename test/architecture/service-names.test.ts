import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * A service's knowledge lives in its rooms (docs/ARCHITECTURE.md, "Rooms: a service's knowledge in its own
 * folders"): shared code names no service. Shared code is every module of src/ that is not a room:
 *
 * - a service's folder on a floor: src/connections/<service>/, src/connectors/<service>/, src/auth/<service>/,
 *   its steps' src/tools/ga/ and src/tools/marketo/, and the sandbox (src/sandbox/, the separate program that
 *   emulates the services);
 * - a module named after its service anywhere (src/schemas/marketo.ts, src/schemas/google-analytics.ts,
 *   src/tools/marketo-api-call.ts, src/auth/marketo-token.ts): its name says which room it belongs to.
 *
 * A service is named by a word of SERVICE_WORDS inside any identifier, string or template of the code
 * (case-insensitive: MarketoConnector, "googleAccounts", GA4, munchkinId, analyticsdata); comments may name
 * services, since that is where the links to a provider's documents go.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const SERVICE_WORDS = /marketo|google|ga4|munchkin|analyticsdata|analyticsadmin|propertyquota/i;

const ROOM_FOLDER = /^src\/(?:sandbox\/|(?:connections|connectors|auth)\/[^/]+\/|tools\/(?:ga|marketo)\/)/;
const ROOM_FILE = /(?:^|\/)(?:marketo|google|ga4?)(?:[-.][^/]*)?\.ts$/;

/**
 * Shared modules that name services by design: each lists the rooms, or is the package's public face.
 * Kept short; a module that merely uses a service's knowledge belongs in that service's room instead.
 */
const ALLOWED: Record<string, string> = {
  "src/connections/registry.ts": "the registry of connection rooms: it lists them",
  "src/auth/secrets-parts.ts": "the auth floor's list of the rooms' stored parts (below the registry)",
  "src/console/cards.ts":
    "the console's list of the rooms' cards (above the registry, which may not import it)",
  "src/tools/registry.ts": "the registry of tool steps: it lists each service's steps",
  "src/index.ts": "the plugin package's entry: it exports each service's connector and types by name",
  "src/real-paths.generated.ts": "generated from the services' published API descriptions",
};

/** "file:line: token" for each token of a module's code (not its comments) that names a service. */
function serviceNames(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const hits: string[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = node.getChildren(source);
    if (children.length > 0) {
      for (const child of children) visit(child);
      return;
    }
    const token = node.getText(source);
    if (!SERVICE_WORDS.test(token)) return;
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    hits.push(`${file}:${line + 1}: ${token.replace(/\s+/g, " ").slice(0, 80)}`);
  };
  visit(source);
  return hits;
}

/** The shared modules of src/ (see above), relative to the repository. */
function sharedModules(): string[] {
  return readdirSync(join(ROOT, "src"), { recursive: true, encoding: "utf8" })
    .map((name) => `src/${name.replaceAll("\\", "/")}`)
    .filter((path) => path.endsWith(".ts") && !ROOM_FOLDER.test(path) && !ROOM_FILE.test(path))
    .sort();
}

/** The service names of every shared module, by module. */
function namesByModule(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const path of sharedModules()) {
    const hits = serviceNames(path, readFileSync(join(ROOT, path), "utf8"));
    if (hits.length > 0) found.set(path, hits);
  }
  return found;
}

describe("shared code names no service", () => {
  const found = namesByModule();

  it("outside the rooms and the allowed registries", () => {
    expect(sharedModules().length).toBeGreaterThan(100);
    const stray = [...found].filter(([path]) => !Object.hasOwn(ALLOWED, path)).flatMap(([, hits]) => hits);
    expect(stray, "move this knowledge into the service's room (docs/ARCHITECTURE.md, Rooms)").toEqual([]);
  });

  it("allows only modules that still name a service", () => {
    expect(Object.keys(ALLOWED).filter((path) => !found.has(path))).toEqual([]);
  });

  it("finds a service named in code, not in a comment, with its line", () => {
    const text = [
      "// Marketo's limits: https://example.com",
      "/** The Google room. */",
      "export const room = 1;",
      'const label = "Google Analytics";',
      "type Secrets = { googleAccounts: object };",
      `const answer = \`\${label} ga4 \${1}\`;`,
      "const munchkinId = /munchkin/i;",
    ].join("\n");
    expect(serviceNames("x.ts", text)).toEqual([
      'x.ts:4: "Google Analytics"',
      "x.ts:5: googleAccounts",
      "x.ts:6: } ga4 ${",
      "x.ts:7: munchkinId",
      "x.ts:7: /munchkin/i",
    ]);
  });

  it("counts a service's own modules as rooms, and the adapters as shared", () => {
    const modules = sharedModules();
    for (const room of [
      "src/connections/google/index.ts",
      "src/connectors/marketo/limits.ts",
      "src/auth/google/stored.ts",
      "src/tools/ga/report-flatten.ts",
      "src/schemas/marketo.ts",
      "src/auth/marketo-token.ts",
      "src/sandbox/index.ts",
    ]) {
      expect(modules).not.toContain(room);
    }
    for (const shared of [
      "src/auth/store-core.ts",
      "src/mcp/logging.ts",
      "src/ops/metrics.ts",
      "src/telemetry.ts",
      "src/connections/types.ts",
      "src/console/routes.ts",
    ]) {
      expect(modules).toContain(shared);
    }
  });
});
