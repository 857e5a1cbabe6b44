/**
 * The floor plan of src/ (docs/ARCHITECTURE.md, "The floors (imports point downwards only)"), checked by
 * dependency-cruiser in test/architecture/boundaries.test.ts, so `npm test` fails on an arrow that runs up.
 *
 * A module may import modules of its own floor or of a floor below, never above. Type-only imports count
 * (`tsPreCompilationDeps`): a type that runs up ties the floors together as much as a value does.
 */

/** The floors, top first. Each is a list of path patterns (regular expressions on the path from the repo root). */
const FLOORS = [
  // The entries: the CLI starts the host (start, serve --http) or the MCP server on stdio; the plugin package's
  // entry (src/index.ts) exports the registry, runToolStep, the MCP server and the host.
  { name: "entries", paths: ["^src/cli/", "^src/index\\.ts$"] },
  // One HTTP server, composed: /mcp, the OAuth authorization server, the console, the operations endpoints.
  { name: "host", paths: ["^src/host/"] },
  // The adapters, side by side: none imports another (the rule "no-sibling-adapters" below).
  { name: "adapters", paths: ["^src/mcp/", "^src/console/", "^src/ops/"] },
  // What the adapters share of HTTP: routing on node:http, the OAuth authorization server and its scopes.
  { name: "web", paths: ["^src/web/"] },
  { name: "workspace", paths: ["^src/workspace\\.ts$", "^src/manifest\\.ts$", "^src/keep-result\\.ts$"] },
  // The chart model is part of a tool step's result.
  { name: "tools", paths: ["^src/tools/", "^src/charts/"] },
  { name: "connections", paths: ["^src/connections/"] },
  { name: "connectors", paths: ["^src/connectors/"] },
  { name: "auth-state-results", paths: ["^src/auth/", "^src/state/", "^src/results/"] },
  {
    name: "ground",
    paths: [
      "^src/schemas/",
      "^src/errors\\.ts$",
      "^src/deadline\\.ts$",
      "^src/redact[^/]*\\.ts$",
      // Small leaves every floor uses; each imports only the ground floor.
      "^src/log\\.ts$",
      "^src/json-size\\.ts$",
      "^src/settings\\.ts$",
      "^src/version\\.ts$",
      "^src/real-paths[^/]*\\.ts$",
      // The metrics seam: it imports nothing, the floors below the adapters report to it at no cost, and
      // only an adapter (the HTTP server, src/ops/metrics.ts) installs a sink. It lives beside the other
      // leaves, not in ops/, so that a folder is one floor and nothing below reaches into an adapter's.
      "^src/telemetry\\.ts$",
    ],
  },
];

/**
 * What the browser bundle (console/src/**) may import from src/: the input-error wording it shares with the
 * server and the types of the usage figures it shows, and what those import. Nothing else: the bundle must
 * not carry the server's validator, Node's modules or a credential's code path. Keep this list closed (a
 * shared module imports only shared modules: see the rule "shared-stays-shared").
 */
const BROWSER_SHARED = [
  "src/console/trim-as-zod.ts",
  "src/console/titled-issues.ts",
  "src/console/validation-wording.ts",
  "src/console/zod-words.ts",
  "src/tools/input/words.ts",
  "src/tools/input/own-value.ts",
  "src/tools/ga/field-catalog.ts",
  // The names a realtime report takes, which the catalog offers in one (a list, no imports).
  "src/tools/ga/realtime-names.ts",
  "src/tools/ga/ua-names.ts",
  // Which GA4 metrics fall as good news (a page's colour of a change): a list, no imports.
  "src/tools/ga/metric-direction.ts",
  // GA4's events and fields in a marketer's words (pure data and functions, no imports): Google's room
  // holds them, the page's pickers, table and chart show them.
  "src/tools/ga/event-words.ts",
  "src/tools/ga/field-search-words.ts",
  // Run Reports' periods: the step's labels of them and their words in the page (no imports).
  "src/tools/ga/period-words.ts",
  "src/schemas/field-path.ts",
  "src/errors.ts",
  "src/connectors/marketo/types.ts",
  "src/connectors/google/types.ts",
  "src/state/types.ts",
  // A step's tasks as the page gets them (TaskView, fields and options): no imports, no service named.
  "src/tools/tasks.ts",
  // The chart model of a result (kind, title, categories, series) and its ECharts option: the page draws
  // what the MCP server renders to PNG, from one mapping.
  "src/charts/model.ts",
  // A funnel's series, drawn by model.ts's chartOption (no imports).
  "src/charts/funnel.ts",
  "src/charts/legend.ts",
  "src/charts/echarts-parts.ts",
];

const anyOf = (patterns) => `(${patterns.join("|")})`;
const exact = (files) => anyOf(files.map((file) => `^${file.replace(/[.]/g, "\\.")}$`));
const ALL_FLOORS = FLOORS.flatMap((floor) => floor.paths);

/** For each floor, one rule: nothing of it imports a floor above it. */
const upArrows = FLOORS.slice(1).map((floor, index) => ({
  name: `no-up-from-${floor.name}`,
  comment: `${floor.name} imports only its own floor and those below (docs/ARCHITECTURE.md, The floors): not ${FLOORS.slice(
    0,
    index + 1,
  )
    .map((above) => above.name)
    .join(", ")}.`,
  severity: "error",
  from: { path: anyOf(floor.paths) },
  to: { path: anyOf(FLOORS.slice(0, index + 1).flatMap((above) => above.paths)) },
}));

/** The adapters on one floor: each its own room, none imports another (the host composes them). */
const ADAPTERS = FLOORS.find((floor) => floor.name === "adapters").paths;
const siblingArrows = ADAPTERS.map((adapter) => ({
  name: "no-sibling-adapters",
  comment:
    "An adapter (mcp, console, ops) does not import another: what two share sits a floor below (src/web/, the workspace), and src/host/ composes them (docs/ARCHITECTURE.md, The floors).",
  severity: "error",
  from: { path: adapter },
  to: { path: anyOf(ADAPTERS.filter((other) => other !== adapter)) },
}));

module.exports = {
  forbidden: [
    ...upArrows,
    ...siblingArrows,
    {
      name: "no-circular",
      comment:
        "No import loop anywhere in src/: a loop makes two modules one, hides which is the floor below, and lets ESM read a binding before it is set.",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "tools-see-connection-types-only",
      comment:
        "A tool step never touches a credential: it asks its context for a connection, so tools/ may import the types of connections/ only.",
      severity: "error",
      from: { path: "^src/tools/" },
      to: { path: "^src/connections/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "every-module-has-a-floor",
      comment:
        "Every module of src/ belongs to a floor of this file (or is the sandbox): place a new folder or top-level file on one.",
      severity: "error",
      from: { path: "^src/", pathNot: anyOf([...ALL_FLOORS, "^src/sandbox/"]) },
      to: {},
    },
    {
      name: "sandbox-is-a-separate-program",
      comment:
        "The sandbox emulates the services over HTTP: it imports only its own code and the ground floor, never the package it stands in for.",
      severity: "error",
      from: { path: "^src/sandbox/" },
      to: { path: "^src/", pathNot: anyOf(["^src/sandbox/", ...FLOORS[FLOORS.length - 1].paths]) },
    },
    {
      name: "only-the-cli-starts-the-sandbox",
      comment:
        "Only the CLI (sandbox, start, serve --sandbox) starts the sandbox, through each connection room's sandbox wiring (src/connections/<service>/sandbox.ts, loaded on demand); nothing else imports it.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(cli|sandbox)/|^src/connections/[^/]+/(sandbox|index)\\.ts$" },
      to: { path: "^src/sandbox/" },
    },
    {
      name: "browser-imports-shared-only",
      comment:
        "The browser bundle imports from src/ only the modules declared shared (BROWSER_SHARED in .dependency-cruiser.cjs).",
      severity: "error",
      from: { path: "^console/src/" },
      to: { path: "^src/", pathNot: exact(BROWSER_SHARED) },
    },
    {
      name: "shared-stays-shared",
      comment:
        "A module the browser bundle shares imports only shared modules, else the bundle reaches beyond the list. A type-only import is erased from the bundle (the usage types name the connectors' CheckedPath), and the console's own type-check (tsconfig without Node's types) still reads it.",
      severity: "error",
      from: { path: exact(BROWSER_SHARED) },
      to: { path: "^src/", pathNot: exact(BROWSER_SHARED), dependencyTypesNot: ["type-only"] },
    },
    {
      name: "shared-has-no-node",
      comment:
        "Node's modules do not exist in a browser. Matched by kind, not name: dependency-cruiser resolves node:path to path.",
      severity: "error",
      from: { path: anyOf([exact(BROWSER_SHARED), "^console/src/"]) },
      to: { dependencyTypes: ["core"], dependencyTypesNot: ["type-only"] },
    },
    {
      name: "shared-has-no-zod",
      comment: "zod is the server's validator: the bundle must not carry it.",
      severity: "error",
      from: { path: anyOf([exact(BROWSER_SHARED), "^console/src/"]) },
      to: { path: "^zod|/node_modules/zod/", dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs", ".json"] },
  },
};
