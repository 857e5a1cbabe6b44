/**
 * The console's page and its assets, built by Vite into dist/console-web (`npm run build`). Only
 * files found there at start are served, by exact name: no path from a request reaches the file
 * system.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { extname, join, relative, sep } from "node:path";
import { packageFile } from "../version.js";
import { secure } from "./http-util.js";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".json": "application/json",
};

/** dist/console-web at the package root, whether the server runs from dist/, the CLI's bundle or src/. */
export function defaultWebRoot(): string {
  return packageFile("dist/console-web");
}

function listFiles(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? listFiles(root, path) : [relative(root, path).split(sep).join("/")];
  });
}

export class StaticFiles {
  readonly #root: string;
  readonly #files: Set<string>;

  constructor(root: string) {
    this.#root = root;
    this.#files = existsSync(join(root, "index.html")) ? new Set(listFiles(root)) : new Set();
  }

  /**
   * The page's stylesheets (`/console/assets/index-<hash>.css`, as the built page links them), for the
   * server-rendered pages that look like it (the OAuth consent page); none when the page was not built.
   */
  stylesheets(): string[] {
    if (!this.#files.has("index.html")) return [];
    const html = readFileSync(join(this.#root, "index.html"), "utf8");
    return [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*>/g)].flatMap((link) => {
      const href = /\bhref="(\/console\/assets\/[^"]+\.css)"/.exec(link[0])?.[1];
      return href && this.#files.has(href.slice("/console/".length)) ? [href] : [];
    });
  }

  /** The page itself: the same HTML for every screen (the page routes on the URL's hash). */
  page(res: ServerResponse): void {
    if (!this.#files.has("index.html")) {
      secure(res);
      res.writeHead(503, { "content-type": "text/plain; charset=utf-8" });
      res.end("The console's page was not built. Run `npm run build`, then start the server again.\n");
      return;
    }
    this.#send(res, "index.html", "no-store");
  }

  /** An asset under /console/assets/; false when there is no such file. */
  asset(res: ServerResponse, name: string): boolean {
    const file = `assets/${name}`;
    if (!this.#files.has(file)) return false;
    // Vite puts a content hash in every asset name, so a name never changes meaning.
    this.#send(res, file, "public, max-age=31536000, immutable");
    return true;
  }

  #send(res: ServerResponse, file: string, cache: string): void {
    const body = readFileSync(join(this.#root, file));
    secure(res, "page");
    res.writeHead(200, {
      "content-type": TYPES[extname(file)] ?? "application/octet-stream",
      "cache-control": cache,
      "content-length": body.length,
    });
    res.end(body);
  }
}
