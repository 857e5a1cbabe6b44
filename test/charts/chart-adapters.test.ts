import { describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import type { ChartModel } from "../../src/charts/model.js";
import { resultEvent } from "../../src/console/steps.js";
import { resultContent } from "../../src/mcp/tool-call.js";
import { MemoryState } from "../../src/state/memory.js";
import type { ToolResult } from "../../src/tools/types.js";
import { Workspace } from "../../src/workspace.js";

// A chart is data on the result: the adapters draw whatever step it comes from (no step is named here).
const CHART: ChartModel = {
  kind: "bar",
  title: "leads by source",
  categories: ["web", "event", "import"],
  series: [{ name: "leads", data: [12, 7, 3] }],
};

const workspace = () =>
  new Workspace({ env: {}, store: new MemoryCredentialStore(), state: new MemoryState() });

const images = async (result: ToolResult<unknown>) =>
  (await resultContent(workspace(), "any_step", result)).content.filter((block) => block.type === "image");

describe("a result that carries a chart model, from any step", () => {
  it("MCP renders it as an 800 × 400 PNG image when the caller asked for the picture", async () => {
    const [image] = await images({
      data: { n: 1 },
      summary: "Three sources.",
      chart: CHART,
      chartImage: true,
    });
    expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
    const png = Buffer.from((image as { data: string }).data, "base64");
    expect(png.subarray(1, 4).toString("ascii")).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([800, 400]);
  }, 30_000);

  it("MCP adds no image unasked, nor for a result without a chart", async () => {
    expect(await images({ data: {}, summary: "s", chart: CHART })).toEqual([]);
    expect(await images({ data: {}, summary: "s", chartImage: true })).toEqual([]);
  });

  it("the console gets the model as it is (the page draws it), and no chart key without one", () => {
    const event = resultEvent({ data: { n: 1 }, summary: "Three sources.", chart: CHART });
    expect(JSON.parse(JSON.stringify(event))).toEqual({
      type: "result",
      summary: "Three sources.",
      data: { n: 1 },
      notes: [],
      chart: CHART,
    });
    expect(resultEvent({ data: [], summary: "none" })).not.toHaveProperty("chart");
  });
});
