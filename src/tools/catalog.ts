import MiniSearch from "minisearch";
import type { ToolStep } from "./types.js";

export interface CatalogHit {
  id: string;
  title: string;
  service: string;
  category: string;
  score: number;
  /** Why a step found by its own words answers the query ("Purchase revenue by Country"). */
  reason?: string;
}

interface CatalogDocument {
  id: string;
  title: string;
  service: string;
  category: string;
  keywords: string;
}

/**
 * Light stemming so "lead" finds "leads", "properties" finds "property" and "reports" finds
 * "report": MiniSearch matches whole terms, and its fuzzy match alone would rank plurals below
 * exact hits of other words.
 */
export function stem(term: string): string {
  const t = term.toLowerCase();
  if (t.length > 4 && t.endsWith("ies")) return `${t.slice(0, -3)}y`;
  if (t.length > 4 && /(ses|xes|ches|shes)$/.test(t)) return t.slice(0, -2);
  if (t.length > 3 && t.endsWith("s") && !t.endsWith("ss")) return t.slice(0, -1);
  return t;
}

/** A catalog index over the steps' title, service, category and keywords, tolerant of case, order, plurals and typos. */
export function createCatalog(steps: readonly ToolStep[]): (query: string) => CatalogHit[] {
  const byId = new Map(steps.map((step) => [step.id, step]));
  const search = new MiniSearch<CatalogDocument>({
    fields: ["title", "service", "category", "keywords"],
    processTerm: (term) => stem(term),
    searchOptions: {
      boost: { title: 3, service: 2, category: 2, keywords: 1 },
      prefix: (term) => term.length >= 3,
      // Absolute edit distances: a transposition ("markteo") costs two edits.
      fuzzy: (term) => (term.length >= 6 ? 2 : term.length >= 4 ? 1 : false),
      combineWith: "OR",
    },
  });
  search.addAll(
    steps.map((step) => ({
      id: step.id,
      title: step.title,
      service: `${step.service.replace("_", " ")} ${step.serviceWords}`,
      category: step.category,
      keywords: step.keywords.join(" "),
    })),
  );
  return (query: string) => {
    const hits: CatalogHit[] = search.search(query.trim()).flatMap((hit) => {
      const step = byId.get(String(hit.id));
      return step ? [hitOf(step, hit.score)] : [];
    });
    // A step that knows words of its own (a report's measures) is found by them too, after the others.
    for (const step of steps) {
      const reason = step.searchReason?.(query);
      if (reason === undefined) continue;
      const hit = hits.find((one) => one.id === step.id);
      if (hit) hit.reason = reason;
      else hits.push({ ...hitOf(step, 0), reason });
    }
    return hits;
  };
}

const hitOf = (step: ToolStep, score: number): CatalogHit => ({
  id: step.id,
  title: step.title,
  service: step.service,
  category: step.category,
  score,
});
