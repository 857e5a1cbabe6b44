import MiniSearch from "minisearch";
import type { ToolStep } from "./types.js";

export interface CatalogHit {
  id: string;
  title: string;
  service: string;
  category: string;
  score: number;
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
  return (query: string) =>
    search.search(query.trim()).flatMap((hit) => {
      const step = byId.get(String(hit.id));
      return step
        ? [
            {
              id: step.id,
              title: step.title,
              service: step.service,
              category: step.category,
              score: hit.score,
            },
          ]
        : [];
    });
}
