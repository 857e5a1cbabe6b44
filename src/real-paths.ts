/**
 * Which request paths exist on the real services, from the generated list of their operations
 * (real-paths.generated.ts, made by scripts/real-api.ts from Adobe's Swagger files and Google's
 * discovery documents). Used where an answer "not found" must not be read as "wrong path": Marketo's
 * 610 and Google's 404 come back both for a misspelt path and for a real path whose resource (or, in
 * the sandbox, whose emulation) is missing.
 */
import { distance } from "fastest-levenshtein";
import {
  GA4_ADMIN_PATHS,
  GA4_DATA_PATHS,
  MARKETO_OFFSET_PAGED,
  MARKETO_PATHS,
} from "./real-paths.generated.js";

export type RealService = "marketo" | "ga4-admin" | "ga4-data";

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

/** Compiled at the first lookup, not at import: a process that never reads an error answer never needs them. */
let templates: Record<RealService, Template[]> | undefined;

function templatesOf(service: RealService): Template[] {
  templates ??= {
    marketo: compile(MARKETO_PATHS),
    "ga4-admin": compile(GA4_ADMIN_PATHS),
    "ga4-data": compile(GA4_DATA_PATHS),
  };
  return templates[service];
}

export interface RealPathMatch {
  /** The real path template, e.g. "/rest/v1/lists/{listId}/leads.json". */
  template: string;
  /** The HTTP methods the real service serves on it. */
  methods: readonly string[];
}

/**
 * The real operation a concrete path (no query string) belongs to; templates without parameters win
 * over parameterised ones, so "/rest/v1/leads/describe.json" is not read as "/rest/v1/leads/{leadId}…".
 */
export function findRealPath(service: RealService, path: string): RealPathMatch | undefined {
  let best: Template | undefined;
  for (const t of templatesOf(service)) {
    if (!t.pattern.test(path)) continue;
    if (!best || t.shape.split("{}").length < best.shape.split("{}").length) best = t;
  }
  return best ? { template: best.template, methods: best.methods } : undefined;
}

const OFFSET_PAGED = new Set(MARKETO_OFFSET_PAGED);

/**
 * Whether a Marketo GET path is a browse call that pages by offset/maxReturn: its operation takes both
 * in Adobe's Swagger. Other Asset API GETs (one email's content, one program) return all they have in
 * one answer, however many items that is.
 */
export function pagesByOffset(path: string): boolean {
  const real = findRealPath("marketo", path);
  return real !== undefined && OFFSET_PAGED.has(real.template);
}

/** Ids and other variable segments as "{}", so that only the fixed words of a path are compared. */
function shapeOf(path: string): string {
  return path.replace(/\/(\d+|[0-9a-f]{8}-[0-9a-f-]{27,})(?=[/.:]|$)/gi, "/{}");
}

/**
 * The real path template closest to a path that matches none (a typo, a wrong plural), or undefined
 * when nothing is close enough to be a useful suggestion.
 */
export function nearestRealPath(service: RealService, path: string): string | undefined {
  const shape = shapeOf(path);
  let best: { template: string; cost: number } | undefined;
  for (const t of templatesOf(service)) {
    const cost = distance(shape, t.shape);
    if (!best || cost < best.cost) best = { template: t.template, cost };
  }
  if (!best) return undefined;
  return best.cost <= Math.max(3, Math.floor(shape.length * 0.25)) ? best.template : undefined;
}
