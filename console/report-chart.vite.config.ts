import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

/**
 * Run Reports' chart as an MCP App (console/src/report-chart-app.tsx), built into ONE self-contained file,
 * dist/mcp-app/report-chart.html, that the MCP server serves as the `ui://martech-steps/report-chart`
 * resource (src/mcp/report-chart-app.ts). A host renders a view's HTML in a sandboxed iframe with no server
 * behind it, so every script and style is inlined
 * (https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx, "UI
 * Resource Format"). Runs in `npm run build`, after the console's page.
 */
const OUT_DIR = fileURLToPath(new URL("../dist/mcp-app", import.meta.url));
export const REPORT_CHART_FILE = "report-chart.html";
const LICENSES_FILE = "report-chart.THIRD-PARTY-LICENSES.md";

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/**
 * The page's own Content-Security-Policy, on top of what the host enforces: only the inlined script and
 * style (by hash), nothing fetched, no form, no base, no plugin. A host with the spec's default policy
 * allows inline code; this one says the view loads nothing else.
 */
function policy(scripts: readonly string[], styles: readonly string[]): string {
  return [
    "default-src 'none'",
    `script-src ${scripts.map(sha256).join(" ")}`,
    `style-src ${styles.map(sha256).join(" ")}`,
    "img-src data:",
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
  ].join("; ");
}

/** A `</script` or `</style` inside inlined code would end its element early. */
const inert = (code: string, tag: "script" | "style") =>
  code.replace(new RegExp(`</${tag}`, "gi"), `<\\/${tag}`);

/** Replaces the built page's script and stylesheet links by their code, and adds the policy above. */
function inlineEverything(): Plugin {
  return {
    name: "mcp-app-inline",
    apply: "build",
    enforce: "post",
    // After vite's licence file is written from the chunks, which this hook then inlines and removes.
    generateBundle: {
      order: "post",
      handler(_options, bundle) {
        const page = bundle["index.html"];
        if (page?.type !== "asset") throw new Error("the view's index.html was not built");
        let html = String(page.source);
        const scripts: string[] = [];
        const styles: string[] = [];
        html = html.replace(/<script type="module" crossorigin src="\/([^"]+)"><\/script>/g, (_tag, name) => {
          const chunk = bundle[name];
          if (chunk?.type !== "chunk") throw new Error(`the view's script ${name} is missing`);
          delete bundle[name];
          const code = inert(chunk.code, "script");
          scripts.push(code);
          return `<script type="module">${code}</script>`;
        });
        html = html.replace(/<link rel="stylesheet" crossorigin href="\/([^"]+)">/g, (_tag, name) => {
          const sheet = bundle[name];
          if (sheet?.type !== "asset") throw new Error(`the view's stylesheet ${name} is missing`);
          delete bundle[name];
          const css = inert(String(sheet.source), "style");
          styles.push(css);
          return `<style>${css}</style>`;
        });
        const left = Object.keys(bundle).filter((name) => name !== "index.html" && name !== LICENSES_FILE);
        if (left.length > 0) throw new Error(`the view must be one file; also built: ${left.join(", ")}`);
        const meta = `<meta http-equiv="Content-Security-Policy" content="${policy(scripts, styles)}" />`;
        html = html.replace("<head>", `<head>\n    ${meta}`);
        delete bundle["index.html"];
        this.emitFile({ type: "asset", fileName: REPORT_CHART_FILE, source: html });
      },
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL("./report-chart", import.meta.url)),
  base: "/",
  logLevel: "warn",
  oxc: { jsx: { runtime: "automatic", importSource: "react" } },
  plugins: [inlineEverything()],
  build: {
    outDir: OUT_DIR,
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    modulePreload: { polyfill: false },
    // Anything small enough to inline is inlined; the plugin refuses a build that leaves a file beside the page.
    assetsInlineLimit: Number.MAX_SAFE_INTEGER,
    cssCodeSplit: false,
    chunkSizeWarningLimit: 1500,
    // The bundled libraries' licences (React, ECharts, the ext-apps App…) beside the page, not in it.
    license: { fileName: LICENSES_FILE },
    rolldownOptions: {
      output: { codeSplitting: false },
      onLog(level, log, handler) {
        if (log.code === "MODULE_LEVEL_DIRECTIVE") return;
        handler(level, log);
      },
    },
  },
});
