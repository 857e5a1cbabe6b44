import { copyFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

/**
 * Bundles src/charts/echarts-server.ts, with the parts of ECharts and zrender it imports, into
 * dist/charts/echarts-server.js, over the file tsc emitted for it: the published package draws its
 * server-side charts with echarts only a devDependency (the console's bundle is built from it too).
 * Runs after tsc (npm run build).
 */
const outDir = fileURLToPath(new URL("../dist/charts", import.meta.url));
const require = createRequire(import.meta.url);

/** The bundled code's licences travel with it (Apache-2.0 asks for its LICENSE and NOTICE). */
function licences(): Plugin {
  return {
    name: "echarts-server-licences",
    async closeBundle() {
      // tsc's map describes the two-line entry, not the bundle that replaced it; the parts list tsc emitted
      // beside it is inlined into the bundle, and would import echarts (a devDependency) if anything loaded it.
      await rm(join(outDir, "echarts-server.js.map"), { force: true });
      for (const file of ["echarts-parts.js", "echarts-parts.js.map", "echarts-parts.d.ts"])
        await rm(join(outDir, file), { force: true });
      for (const name of ["echarts", "zrender"]) {
        const root = dirname(require.resolve(`${name}/package.json`));
        await copyFile(join(root, "LICENSE"), join(outDir, `echarts-server.${name}.LICENSE`));
      }
      const echarts = dirname(require.resolve("echarts/package.json"));
      await copyFile(join(echarts, "NOTICE"), join(outDir, "echarts-server.echarts.NOTICE"));
    },
  };
}

export default defineConfig({
  logLevel: "warn",
  plugins: [licences()],
  build: {
    outDir,
    emptyOutDir: false,
    target: "node20",
    minify: true,
    sourcemap: false,
    lib: {
      entry: fileURLToPath(new URL("../src/charts/echarts-server.ts", import.meta.url)),
      formats: ["es"],
      fileName: () => "echarts-server.js",
    },
    rolldownOptions: {
      output: {
        banner:
          "/* ECharts (Apache-2.0) and zrender (BSD-3-Clause), bundled: see echarts-server.*.LICENSE */",
      },
    },
  },
});
