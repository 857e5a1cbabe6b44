import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

/**
 * Bundles the CLI (src/cli/main.ts and everything of ours it imports) into dist/cli/main.js, over the
 * file tsc emitted for it, with the modules it loads later (the sandbox, the console, the steps) split
 * into chunks under dist/cli/chunks/. Why: a `serve` start loaded ~80 small modules of ours, and
 * resolving, reading and linking each one was most of the stdio cold start the bench measures against the
 * SDK's minimal server (bench/rows/cold-start.ts); bundled, it loads a handful of chunks. Packages
 * (node_modules) and Node's own modules stay imports, as in tsc's output. The plugin registry's exports
 * (dist/index.js) stay tsc's one file per module; only the CLI is bundled. Runs after tsc (npm run build).
 * https://vite.dev/guide/ssr#building-for-production, https://rolldown.rs/reference/OutputOptions.chunkFileNames
 */
const root = fileURLToPath(new URL("..", import.meta.url));
const outDir = join(root, "dist/cli");

/**
 * The chart renderer (src/charts/render-png.ts) imports the ECharts bundle the chart build writes
 * (scripts/echarts-server.vite.config.ts): it stays that file, not a second copy of ECharts in the CLI.
 */
const ECHARTS_SERVER = join(root, "dist/charts/echarts-server.js");

/**
 * The ground floor's small leaves (.dependency-cruiser.cjs), each importing only the ground floor; not
 * real-paths*.ts (20 KB of real API paths, which only the steps read).
 */
const GROUND = /[\\/]src[\\/](errors|deadline|log|json-size|settings|version|telemetry|redact[^\\/]*)\.ts$/;

function cliLayout(): Plugin {
  return {
    name: "cli-bundle-layout",
    // Before Vite's own resolver, which would find src/charts/echarts-server.ts and bundle it.
    enforce: "pre",
    async buildStart() {
      // A chunk's name carries a hash of its content: last build's chunks would stay beside the new ones.
      await rm(join(outDir, "chunks"), { recursive: true, force: true });
    },
    resolveId(source, importer) {
      if (source === "./echarts-server.js" && importer?.endsWith(join("src", "charts", "render-png.ts")))
        return { id: ECHARTS_SERVER, external: true };
      return null;
    },
    async closeBundle() {
      // tsc's one-file-per-module CLI is now inside the bundle: its files would ship unused, and a test
      // that reads which modules `serve` loads would not know which copy it was looking at.
      const kept = new Set(["main.js", "main.js.map", "chunks"]);
      for (const entry of await readdir(outDir))
        if (!kept.has(entry)) await rm(join(outDir, entry), { recursive: true, force: true });
    },
  };
}

export default defineConfig({
  logLevel: "warn",
  plugins: [cliLayout()],
  build: {
    outDir,
    emptyOutDir: false,
    target: "node20",
    // Readable stack traces (node --enable-source-maps): each chunk's map points at src/ files and lines.
    // Without the sources' text, which a trace does not need: tsc's maps beside dist/ carry it already,
    // and inlined here it would add about 0.9 MB to the packed package.
    sourcemap: true,
    minify: false,
    // Server-side build: packages and node: modules stay external imports (https://vite.dev/config/ssr-options).
    ssr: join(root, "src/cli/main.ts"),
    rolldownOptions: {
      output: {
        format: "es",
        sourcemapExcludeSources: true,
        entryFileNames: "main.js",
        chunkFileNames: "chunks/[name]-[hash].js",
        // Left to itself the bundler makes a chunk of every set of modules shared by a different set of
        // dynamic imports: `serve` still loaded ~28 chunks, many a single small module. Two groups
        // (https://rolldown.rs/in-depth/manual-code-splitting): what `serve` imports statically (with
        // its dependencies, recursively) is one chunk, since a `serve` start needs all of it anyway; the
        // ground floor's small leaves (errors, version, log...) are one chunk for the other commands.
        // What `serve` imports on demand (the sandbox, the steps, the HTTP server) stays apart.
        codeSplitting: {
          groups: [
            { name: "serve", test: /[\\/]src[\\/]cli[\\/]serve\.ts$/, priority: 1 },
            { name: "ground", test: GROUND, priority: 2 },
          ],
        },
      },
    },
  },
});
