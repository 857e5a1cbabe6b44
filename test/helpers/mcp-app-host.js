/**
 * A small MCP Apps host page, for test/e2e/mcp-app.test.ts: built on the extension's own host side
 * (`AppBridge` and `PostMessageTransport` of @modelcontextprotocol/ext-apps/app-bridge), bundled by the test
 * with Vite and run in Chromium. `window.showApp(html, input, result)` puts a view's HTML in a sandboxed
 * iframe (scripts only, an opaque origin: no access to this page), connects the bridge, waits for the
 * view's `ui/notifications/initialized`, then sends the tool's input and result, as a host does after a call
 * (https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx, "Lifecycle").
 * Plain JavaScript: the test suite's TypeScript has no DOM types.
 */
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

let shown;

window.showApp = async (html, input, result) => {
  await shown?.bridge.close();
  shown?.frame.remove();
  const frame = document.createElement("iframe");
  frame.title = "Run Reports chart";
  frame.setAttribute("sandbox", "allow-scripts");
  frame.style.cssText = "width: 100%; height: 200px; border: 1px solid #d0d7de;";
  document.querySelector("main").append(frame);
  // No MCP client behind this host: the view gets what the test sends, and asks the server for nothing.
  const bridge = new AppBridge(null, { name: "martech-steps test host", version: "1.0.0" }, {});
  const initialized = new Promise((resolve) => {
    bridge.oninitialized = resolve;
  });
  bridge.onsizechange = ({ height }) => {
    if (height != null) frame.style.height = `${height}px`;
  };
  shown = { bridge, frame };
  // Connected before the document loads: the view sends ui/initialize as soon as its script runs.
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.srcdoc = html;
  await initialized;
  await bridge.sendToolInput({ arguments: input });
  await bridge.sendToolResult(result);
};
