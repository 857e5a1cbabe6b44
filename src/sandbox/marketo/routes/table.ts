/**
 * How a route is written: a method, a real path template from Adobe's Swagger, and its handler. Ids are
 * numbers; export ids UUIDs; a custom object's `{apiName}` is an API name (letters, digits, `_`), never `schema`: those
 * paths are the custom object metadata API's (`/rest/v1/customobjects/schema.json`).
 */
import type { Handler, Route } from "../types.js";

export const r = (method: Route["method"], path: string, handler: Handler): Route => ({
  method,
  template: path,
  pattern: new RegExp(
    `^${path
      .replaceAll(".", "\\.")
      .replaceAll("{id}", "(\\d+)")
      // A custom object's API name, never the metadata API's `schema` path (not emulated).
      .replaceAll("{apiName}", "(?!schema\\b)([A-Za-z0-9_]+)")
      .replace(/\{[^}]+\}/g, "([^/]+)")}$`,
  ),
  handler,
});

/** A route whose body is multipart/form-data (bulk imports). */
export const multipart = (route: Route): Route => ({ ...route, consumes: "multipart/form-data" });
