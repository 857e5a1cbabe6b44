/**
 * `npm run real-api -- <spec dir>`: reads Adobe's Marketo Swagger files and Google's GA4 discovery
 * documents (the folder that holds marketo/swagger-*.json and google-analytics/*.json, copied unchanged
 * from AdobeDocs/marketo-developer.en and the Google discovery artifacts) and writes:
 *   - src/real-paths.generated.ts: every real operation as a compact "METHODS /path/{param}" line, for
 *     the "is this a real endpoint?" hints of the connectors and the sandbox's "not emulated" answer;
 *   - src/real-queries.generated.ts: the query parameters of each Marketo GET, for the warning that Marketo
 *     ignores one it does not take (connectors/marketo/real-paths.ts);
 *   - test/fixtures/real-api/*.json: each operation's response (and request) schema and every definition
 *     they reach, without descriptions (but for the field behaviours Google writes into them), for the
 *     sandbox's schema-validation tests.
 * Both outputs are committed; test/sandbox/real-path-hints.test.ts checks they were made together.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

type Json = Record<string, unknown>;

const specDir = process.argv[2];
if (!specDir) {
  process.stderr.write("usage: npm run real-api -- <folder with marketo/ and google-analytics/>\n");
  process.exit(2);
}
const root = new URL("../", import.meta.url);
const read = (path: string): Json => JSON.parse(readFileSync(join(specDir, path), "utf8")) as Json;

/**
 * Drops prose (description, example, enumDescriptions, title) that validation does not need. Inside a
 * `properties` map the keys are field names (a field may be called "description"), so they stay.
 */
function strip(value: unknown, fieldMap = false): unknown {
  if (Array.isArray(value)) return value.map((item) => strip(item));
  if (typeof value !== "object" || value === null) return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    if (!fieldMap && ["description", "example", "enumDescriptions", "title", "externalDocs"].includes(key)) {
      continue;
    }
    out[key] = strip(inner, !fieldMap && key === "properties");
  }
  return out;
}

/**
 * google.api.field_behavior, which a discovery document carries only as the first sentences of a field's
 * description ("Required.", "Output only. Identifier."): kept as `fieldBehavior: ["REQUIRED", …]` before
 * the prose is dropped, for the schema tests to turn into `required` where the wire always has the field.
 */
const BEHAVIORS: Record<string, string> = {
  Required: "REQUIRED",
  "Output only": "OUTPUT_ONLY",
  Immutable: "IMMUTABLE",
  Optional: "OPTIONAL",
  Identifier: "IDENTIFIER",
};

function withFieldBehavior(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withFieldBehavior);
  if (typeof value !== "object" || value === null) return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) out[key] = withFieldBehavior(inner);
  if (typeof out.description === "string") {
    const found: string[] = [];
    let rest = out.description;
    for (;;) {
      const match = /^\s*(Required|Output only|Immutable|Optional|Identifier)\.(?:\s|$)/.exec(rest);
      if (!match?.[1]) break;
      found.push(BEHAVIORS[match[1]] as string);
      rest = rest.slice(match[0].length);
    }
    if (found.length > 0) out.fieldBehavior = found;
  }
  return out;
}

/** Every name reachable from `start` through `$ref`s (Swagger "#/definitions/X" or discovery "X"). */
function reachable(all: Json, start: Iterable<string>, refName: (ref: string) => string): Json {
  const out: Json = {};
  const visit = (name: string): void => {
    if (name in out || !(name in all)) return;
    out[name] = strip(all[name]);
    const text = JSON.stringify(all[name]);
    for (const match of text.matchAll(/"\$ref":"([^"]+)"/g)) visit(refName(match[1] as string));
  };
  for (const name of start) visit(name);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

interface Operation {
  method: string;
  path: string;
  id: string;
  response?: string;
  request?: string;
  /** Takes both offset and maxReturn: an Asset API browse call that pages by offset. */
  offsetPaged?: boolean;
  /** The query parameters it takes (Swagger operations only). */
  queries?: string[];
}

function swaggerOperations(spec: Json): Operation[] {
  const ops: Operation[] = [];
  const refName = (ref: unknown) => (typeof ref === "string" ? ref.split("/").pop() : undefined);
  for (const [path, methods] of Object.entries(spec.paths as Record<string, Json>)) {
    for (const [method, raw] of Object.entries(methods)) {
      const op = raw as {
        operationId: string;
        responses?: Record<string, { schema?: { $ref?: string } }>;
        parameters?: { in: string; name?: string; description?: string; schema?: { $ref?: string } }[];
      };
      const response = refName(op.responses?.["200"]?.schema?.$ref);
      const request = refName(op.parameters?.find((p) => p.in === "body")?.schema?.$ref);
      const names = new Set(op.parameters?.map((p) => p.name));
      const inQuery = (op.parameters ?? []).filter((p) => p.in === "query");
      // A parameter whose description says it "Requires" another takes that one too, listed or not (Browse
      // Programs' filterType: "Requires filterValues", which its parameter list leaves out).
      const required = inQuery.flatMap((p) =>
        [...(p.description ?? "").matchAll(/\bRequires (\w+)/g)].map((m) => m[1] ?? ""),
      );
      const queries = [...inQuery.map((p) => p.name ?? ""), ...required];
      ops.push({
        method: method.toUpperCase(),
        path,
        id: op.operationId,
        ...(names.has("offset") && names.has("maxReturn") ? { offsetPaged: true } : {}),
        queries: [...new Set(queries)].filter(Boolean).sort(),
        ...(response ? { response } : {}),
        ...(request ? { request } : {}),
      });
    }
  }
  return ops;
}

function discoveryOperations(doc: Json): Operation[] {
  const ops: Operation[] = [];
  const walk = (resources: unknown): void => {
    for (const resource of Object.values((resources ?? {}) as Record<string, Json>)) {
      for (const raw of Object.values((resource.methods ?? {}) as Record<string, Json>)) {
        const m = raw as {
          httpMethod: string;
          flatPath: string;
          id: string;
          response?: { $ref: string };
          request?: { $ref: string };
        };
        ops.push({
          method: m.httpMethod,
          path: `/${m.flatPath}`,
          id: m.id,
          ...(m.response ? { response: m.response.$ref } : {}),
          ...(m.request ? { request: m.request.$ref } : {}),
        });
      }
      walk(resource.resources);
    }
  };
  walk(doc.resources);
  return ops;
}

function fixture(ops: Operation[], definitions: Json, refName: (ref: string) => string): Json {
  const names = ops.flatMap((op) => [op.response, op.request]).filter((n): n is string => n !== undefined);
  const operations: Json = {};
  for (const op of [...ops].sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`))) {
    operations[`${op.method} ${op.path}`] = {
      id: op.id,
      ...(op.response ? { response: op.response } : {}),
      ...(op.request ? { request: op.request } : {}),
    };
  }
  return { operations, definitions: reachable(definitions, names, refName) };
}

/** "GET,POST /path" lines: one per path, methods sorted, paths sorted. */
function compact(ops: Operation[]): string[] {
  const byPath = new Map<string, Set<string>>();
  for (const op of ops) byPath.set(op.path, (byPath.get(op.path) ?? new Set()).add(op.method));
  return [...byPath.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, methods]) => `${[...methods].sort().join(",")} ${path}`);
}

const swaggerRef = (ref: string) => ref.split("/").pop() ?? ref;
const marketo: Record<string, Operation[]> = {};
const fixtures: Record<string, Json> = {};
for (const name of ["mapi", "asset", "identity", "user"]) {
  const spec = read(`marketo/swagger-${name}.json`);
  marketo[name] = swaggerOperations(spec);
  fixtures[`marketo-${name}`] = fixture(marketo[name], spec.definitions as Json, swaggerRef);
}
const google: Record<string, Operation[]> = {};
for (const [name, file] of [
  ["admin", "analyticsadmin.v1beta.json"],
  ["data", "analyticsdata.v1beta.json"],
] as const) {
  const doc = read(`google-analytics/${file}`);
  google[name] = discoveryOperations(doc);
  fixtures[`ga4-${name}`] = fixture(google[name], withFieldBehavior(doc.schemas) as Json, (ref) => ref);
}

const list = (lines: string[]) => `[\n${lines.map((l) => `  ${JSON.stringify(l)},`).join("\n")}\n]`;
const marketoLines = compact([
  ...(marketo.mapi ?? []),
  ...(marketo.asset ?? []),
  ...(marketo.identity ?? []),
  // User management (/userservice/management/v1/…): not emulated by the sandbox, which must say so.
  ...(marketo.user ?? []),
]);
const offsetPaged = [...(marketo.mapi ?? []), ...(marketo.asset ?? [])]
  .filter((op) => op.offsetPaged && op.method === "GET")
  .map((op) => op.path)
  .sort();
/** The formatter's line width (biome.json). */
const LINE_WIDTH = 110;
/** A record of string lists, one entry a line (as the formatter leaves it). */
const record = (entries: Record<string, string[]>) => {
  const lines = Object.entries(entries).map(([key, names]) => {
    const quoted = names.map((name) => JSON.stringify(name));
    const line = `  ${JSON.stringify(key)}: [${quoted.join(", ")}],`;
    // Past the formatter's line width, one name a line, as it would write them.
    return line.length <= LINE_WIDTH
      ? line
      : `  ${JSON.stringify(key)}: [\n${quoted.map((q) => `    ${q},`).join("\n")}\n  ],`;
  });
  return `{\n${lines.join("\n")}\n}`;
};
const getQueries = Object.fromEntries(
  [...(marketo.mapi ?? []), ...(marketo.asset ?? [])]
    .filter((op) => op.method === "GET")
    .sort((a, b) => a.path.localeCompare(b.path))
    .map((op) => [op.path, op.queries ?? []]),
);
const module = `/**
 * GENERATED by scripts/real-api.ts from Adobe's Marketo Swagger files (AdobeDocs/marketo-developer.en
 * help/rest-api/assets/swagger-{mapi,asset,identity,user}.json) and Google's discovery documents
 * (analyticsadmin v1beta, analyticsdata v1beta). Do not edit: rerun the script.
 * One line per real path: the HTTP methods it serves, then the path template.
 */

/** Marketo Engage Lead DB, Asset, Bulk, Identity and User management operations (${marketoLines.length} paths). */
export const MARKETO_PATHS: readonly string[] = ${list(marketoLines)};

/** The GET operations that take offset and maxReturn: Asset API browse calls, which page by offset. */
export const MARKETO_OFFSET_PAGED: readonly string[] = ${list(offsetPaged)};

/** GA4 Admin API v1beta methods (flat paths). */
export const GA4_ADMIN_PATHS: readonly string[] = ${list(compact(google.admin ?? []))};

/** GA4 Data API v1beta methods (flat paths). */
export const GA4_DATA_PATHS: readonly string[] = ${list(compact(google.data ?? []))};
`;
writeFileSync(new URL("src/real-paths.generated.ts", root), module);
// Apart, so that neither generated file passes 400 lines.
const queries = `/**
 * GENERATED by scripts/real-api.ts from Adobe's Marketo Swagger files (AdobeDocs/marketo-developer.en
 * help/rest-api/assets/swagger-{mapi,asset}.json). Do not edit: rerun the script.
 */

/** The query parameters each Lead DB and Asset GET takes, by path template (a name not here, Marketo ignores). */
export const MARKETO_GET_QUERIES: Readonly<Record<string, readonly string[]>> = ${record(getQueries)};
`;
writeFileSync(new URL("src/real-queries.generated.ts", root), queries);
for (const [name, body] of Object.entries(fixtures)) {
  writeFileSync(new URL(`test/fixtures/real-api/${name}.json`, root), `${JSON.stringify(body)}\n`);
}
process.stderr.write(
  "src/real-paths.generated.ts, src/real-queries.generated.ts and test/fixtures/real-api/*.json are up to date.\n",
);
