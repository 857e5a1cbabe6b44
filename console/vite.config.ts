import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

/**
 * The console's page, built into dist/console-web (served at / and /console/assets/ by the
 * server). Everything is bundled: nothing is fetched from another origin at run time.
 */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/console/",
  logLevel: "warn",
  oxc: { jsx: { runtime: "automatic", importSource: "react" } },
  build: {
    outDir: fileURLToPath(new URL("../dist/console-web", import.meta.url)),
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    // Vite's preload polyfill would be an inline script, which the page's CSP refuses.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 700,
    // The bundled libraries' licences (React, ECharts, rjsf…) travel with the bundle.
    license: { fileName: "THIRD-PARTY-LICENSES.md" },
    rolldownOptions: {
      // React libraries mark modules "use client" for server components; a plain page has none.
      onLog(level, log, handler) {
        if (log.code === "MODULE_LEVEL_DIRECTIVE") return;
        handler(level, log);
      },
    },
  },
});
