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
 *
 * The console page (console/src/) follows the same rule with rooms of its own: a folder named as its
 * service's connection room (console/src/google/, console/src/marketo/) holds the page's parts that serve
 * one service (its card, its pickers, its words). Outside them a page module names no service, neither in
 * its code nor in its file's name (ga-event-words.ts was GA4's knowledge in a shared-looking file):
 * knowledge without React (data and functions) lives in the service's room under src/ and reaches the page
 * through the modules the bundle may import (BROWSER_SHARED in .dependency-cruiser.cjs).
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const SERVICE_WORDS = /marketo|google|ga4|munchkin|analyticsdata|analyticsadmin|propertyquota/i;

const ROOM_FOLDER = /^src\/(?:sandbox\/|(?:connections|connectors|auth)\/[^/]+\/|tools\/(?:ga|marketo)\/)/;
const ROOM_FILE = /(?:^|\/)(?:marketo|google|ga4?)(?:[-.][^/]*)?\.ts$/;

/** Whether a file's or folder's name names a service by one of its words (GoogleCard, ga-event-words). */
function namesService(name: string): boolean {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(/[-._\s]+/);
  return words.some((word) => SERVICE_WORDS.test(word) || word.toLowerCase() === "ga");
}

/** The services, by their connection rooms' folders (src/connections/<service>/). */
const SERVICES = readdirSync(join(ROOT, "src/connections"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** A console page module in a room: under console/src/<service>/, as its connection room is named. */
const inConsoleRoom = (path: string): boolean => {
  const parts = path.split("/");
  return parts.length > 3 && SERVICES.includes(parts[2] ?? "");
};

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
  "src/real-queries.generated.ts":
    "generated from Adobe's published Swagger files, beside real-paths.generated.ts",
  "console/src/Integrations.tsx":
    "the page's list of the rooms' cards (CONNECTION_CARDS), as src/console/cards.ts is the server's",
  // The page's modules that still pick a room's part by a step's or a service's id. Each is to ask a list
  // of the rooms' parts (or the step's definition, as tasks and answers are asked) instead, and leave here.
  "console/src/StepForm.tsx": "still imports Google's pickers for the fields form-ui.ts maps to them",
  "console/src/Results.tsx": "still imports Google's property fields to title a report's columns",
  "console/src/StepRunner.tsx": "still picks Run Reports' names and Marketo's REST headline by step",
  "console/src/TaskRunner.tsx":
    "still imports the parts of Marketo's tasks (confirm, lead cards, CSV preview)",
  "console/src/field-words.ts": "still holds Run Reports' and Marketo's tasks' form words by step id",
  "console/src/Problem.tsx": "still links a Google connection's error to the integrations page by its id",
};

/** "file:line: token" for each token of a module's code (not its comments) that names a service. */
function serviceNames(file: string, text: string): string[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
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

/** Every file under a folder of the repository, by its path relative to the repository. */
const filesUnder = (folder: string): string[] =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" }).map(
    (name) => `${folder}/${name.replaceAll("\\", "/")}`,
  );

/** The shared modules of src/ and of the console page (see above), relative to the repository. */
function sharedModules(): string[] {
  const server = filesUnder("src").filter(
    (path) => path.endsWith(".ts") && !ROOM_FOLDER.test(path) && !ROOM_FILE.test(path),
  );
  const page = filesUnder("console/src").filter((path) => /\.tsx?$/.test(path) && !inConsoleRoom(path));
  return [...server, ...page].sort();
}

/** A shared page module named after a service: the name says it belongs in that service's room. */
function fileNameHit(path: string): string[] {
  const name = path.slice(path.lastIndexOf("/") + 1).replace(/\.tsx?$/, "");
  return path.startsWith("console/") && namesService(name) ? [`${path}: its name names a service`] : [];
}

/** The service names of every shared module, by module. */
function namesByModule(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const path of sharedModules()) {
    const hits = [...fileNameHit(path), ...serviceNames(path, readFileSync(join(ROOT, path), "utf8"))];
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

  it("counts the page's service folders as rooms, and flags a shared page module named after a service", () => {
    expect(
      ["GoogleCard", "ga-event-words", "GA4Quota", "marketo-words", "munchkin"].filter(namesService),
    ).toEqual(["GoogleCard", "ga-event-words", "GA4Quota", "marketo-words", "munchkin"]);
    expect(["gauge", "Integrations", "page-code", "StepBar", "pagination"].filter(namesService)).toEqual([]);
    expect(inConsoleRoom("console/src/google/GoogleCard.tsx")).toBe(true);
    expect(inConsoleRoom("console/src/marketo/words.ts")).toBe(true);
    expect(inConsoleRoom("console/src/ga-event-words.ts")).toBe(false);
    expect(inConsoleRoom("console/src/words/google.ts")).toBe(false);
    expect(fileNameHit("console/src/ga-event-words.ts")).toEqual([
      "console/src/ga-event-words.ts: its name names a service",
    ]);
    expect(fileNameHit("src/schemas/marketo.ts")).toEqual([]);
    expect(sharedModules()).toContain("console/src/StepBar.tsx");
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
