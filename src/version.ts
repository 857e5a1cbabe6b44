import { readFileSync } from "node:fs";

/** Package name and version, read once from package.json (works from src/ under tsx and from dist/). */
export const PACKAGE: { name: string; version: string } = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
) as { name: string; version: string };
