import { NotFoundError } from "../errors.js";
import { type CatalogHit, createCatalog } from "./catalog.js";
import { googleAnalyticsApiCall } from "./google-analytics-api-call.js";
import { googleAnalyticsCreateKeyEvents } from "./google-analytics-create-key-events.js";
import { googleAnalyticsCreateProperties } from "./google-analytics-create-properties.js";
import { googleAnalyticsRunReports } from "./google-analytics-run-reports.js";
import { marketoApiCall } from "./marketo-api-call.js";
import type { ToolStep } from "./types.js";

/** The one registry: the MCP tool list, manifest.json, the README table and the catalog all derive from it. */
export const TOOL_STEPS: readonly ToolStep[] = [
  marketoApiCall,
  googleAnalyticsRunReports,
  googleAnalyticsCreateKeyEvents,
  googleAnalyticsCreateProperties,
  googleAnalyticsApiCall,
] as readonly ToolStep[];

export function getToolStep(id: string): ToolStep {
  const step = TOOL_STEPS.find((s) => s.id === id);
  if (!step) {
    throw new NotFoundError(`No tool step "${id.slice(0, 80)}".`, {
      hint: `Known tool steps: ${TOOL_STEPS.map((s) => s.id).join(", ")}.`,
    });
  }
  return step;
}

const search = createCatalog(TOOL_STEPS);

/** Ranks the tool steps for a catalog search ("marketing automation" finds the Marketo step). */
export function searchToolSteps(query: string): CatalogHit[] {
  return search(query);
}
