/**
 * Which request paths exist on a real service, from a generated list of its operations
 * (real-paths.generated.ts, made by scripts/real-api.ts from Adobe's Swagger files and Google's
 * discovery documents). Used where an answer "not found" must not be read as "wrong path": Marketo's
 * 610 and Google's 404 come back both for a misspelt path and for a real path whose resource (or, in
 * the sandbox, whose emulation) is missing. Each room (its connector, its emulator) builds the lookup
 * of its own list with `realPaths(list)`.
 */
import { distance } from "fastest-levenshtein";

interface Template {
  template: string;
  methods: readonly string[];
  pattern: RegExp;
  /** The template with every parameter as "{}", the form distances are measured on. */
  shape: string;
}

function compile(lines: readonly string[]): Template[] {
  return lines.map((line) => {
    const space = line.indexOf(" ");
    const template = line.slice(space + 1);
    const source = template
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith("{") ? "[^/:]+" : part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")))
      .join("");
    return {
      template,
      methods: line.slice(0, space).split(","),
      pattern: new RegExp(`^${source}$`),
      shape: template.replace(/\{[^}]+\}/g, "{}"),
    };
  });
}

export interface RealPathMatch {
  /** The real path template, e.g. "/rest/v1/lists/{listId}/leads.json". */
  template: string;
  /** The HTTP methods the real service serves on it. */
  methods: readonly string[];
}

/** A service's real paths, looked up. */
export interface RealPaths {
  /**
   * The real operation a concrete path (no query string) belongs to; templates without parameters win
   * over parameterised ones, so "/rest/v1/leads/describe.json" is not read as "/rest/v1/leads/{leadId}…".
   */
  find(path: string): RealPathMatch | undefined;
  /**
   * The real path template closest to a path that matches none (a typo, a wrong plural), or undefined
   * when nothing is close enough to be a useful suggestion.
   */
  nearest(path: string): string | undefined;
}

function find(templates: readonly Template[], path: string): RealPathMatch | undefined {
  let best: Template | undefined;
  for (const t of templates) {
    if (!t.pattern.test(path)) continue;
    if (!best || t.shape.split("{}").length < best.shape.split("{}").length) best = t;
  }
  return best ? { template: best.template, methods: best.methods } : undefined;
}

/** Ids and other variable segments as "{}", so that only the fixed words of a path are compared. */
function shapeOf(path: string): string {
  return path.replace(/\/(\d+|[0-9a-f]{8}-[0-9a-f-]{27,})(?=[/.:]|$)/gi, "/{}");
}

/**
 * Whether two shapes differ only a little where they differ: after their common segments at the start, the
 * rest must be within a third of its length (a typo, a missing "s"), so that ".../audiences" is not offered
 * ".../keyEvents" because the two paths share a long start.
 */
function closeWhereTheyDiffer(a: string, b: string): boolean {
  let start = 0;
  for (let i = 0; i < Math.min(a.length, b.length) && a[i] === b[i]; i++) if (a[i] === "/") start = i + 1;
  const [restA, restB] = [a.slice(start), b.slice(start)];
  return distance(restA, restB) <= Math.max(2, Math.floor(Math.max(restA.length, restB.length) / 3));
}

function nearest(templates: readonly Template[], path: string): string | undefined {
  const shape = shapeOf(path);
  let best: { template: string; cost: number } | undefined;
  for (const t of templates) {
    const cost = distance(shape, t.shape);
    if (best && cost >= best.cost) continue;
    if (cost <= Math.max(3, Math.floor(shape.length * 0.25)) && closeWhereTheyDiffer(shape, t.shape)) {
      best = { template: t.template, cost };
    }
  }
  return best?.template;
}

/**
 * The lookup of one service's list of real paths ("METHODS /path/{param}" lines, as generated). The list
 * is compiled at the first lookup, not at import: a process that never reads an error answer never needs it.
 */
export function realPaths(lines: readonly string[]): RealPaths {
  let templates: Template[] | undefined;
  const compiled = () => {
    templates ??= compile(lines);
    return templates;
  };
  return {
    find: (path) => find(compiled(), path),
    nearest: (path) => nearest(compiled(), path),
  };
}
