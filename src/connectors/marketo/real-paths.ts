/**
 * Marketo's real paths (Adobe's Swagger files, src/real-paths.generated.ts): which exist, and which
 * browse calls page by offset.
 */

import { MARKETO_OFFSET_PAGED, MARKETO_PATHS } from "../../real-paths.generated.js";
import { realPaths } from "../../real-paths.js";

export const MARKETO_REAL_PATHS = realPaths(MARKETO_PATHS);

const OFFSET_PAGED = new Set(MARKETO_OFFSET_PAGED);

/**
 * Whether a Marketo GET path is a browse call that pages by offset/maxReturn: its operation takes both
 * in Adobe's Swagger. Other Asset API GETs (one email's content, one program) return all they have in
 * one answer, however many items that is.
 */
export function pagesByOffset(path: string): boolean {
  const real = MARKETO_REAL_PATHS.find(path);
  return real !== undefined && OFFSET_PAGED.has(real.template);
}
