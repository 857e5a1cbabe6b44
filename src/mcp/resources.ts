import { ResourceNotFoundError, ResourceTemplate } from "@modelcontextprotocol/server";
import { type AnyRoom, CONNECTION_KINDS, CONNECTION_ROOMS } from "../connections/registry.js";
import type { Manifest } from "../manifest.js";
import { reportChartApp } from "./report-chart-app.js";
import type { ResourceProvider } from "./resource-provider.js";
import { resultResources } from "./result-links.js";

export type { ResourceProvider, ResourceScope } from "./resource-provider.js";

const MANIFEST_URI = "martech-steps://manifest";
const STEP_URI = "martech-steps://tool-steps/{id}";
/** The package's own description only changes with its version: any client may keep it an hour. */
const STATIC = { ttlMs: 3_600_000, cacheScope: "public" } as const;

let built: Promise<Manifest> | undefined;

/**
 * Loaded when a client first reads it: serving tools should not pay for loading the steps' zod schemas.
 * Then kept: it changes only with the package, and building it converts every step's schema.
 */
function manifest(): Promise<Manifest> {
  built ??= import("../manifest.js").then(({ buildManifest }) => buildManifest());
  return built;
}

function json(uri: URL, value: unknown) {
  return {
    contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(value, null, 2) }],
  };
}

/**
 * The package describing itself: manifest.json (every tool step with its JSON Schemas, and the
 * connections an admin configures) and one resource per tool step, so a client can show or attach the
 * definition of a step without calling it.
 */
export const packageResources: ResourceProvider = (server) => {
  server.registerResource(
    "manifest",
    MANIFEST_URI,
    {
      title: "martech-steps manifest",
      // A trial's agent read its 51,000 characters before its first task (trial s28): tools/list already holds
      // what a call takes.
      description:
        "The plugin manifest for hosts and admins: every tool step (JSON Schemas, annotations, scopes) and its " +
        "connections, about 50,000 characters. A call needs only tools/list.",
      mimeType: "application/json",
      cacheHint: STATIC,
    },
    async (uri) => json(uri, await manifest()),
  );
  server.registerResource(
    "tool-step",
    new ResourceTemplate(STEP_URI, {
      list: async () => ({
        resources: (await manifest()).steps.map((step) => ({
          uri: STEP_URI.replace("{id}", step.id),
          name: step.id,
          title: step.title,
          description: step.description.split(/(?<=\.)\s/)[0] ?? step.description,
          mimeType: "application/json",
        })),
      }),
    }),
    {
      title: "Tool step definition",
      description: "One tool step as manifest.json describes it.",
      mimeType: "application/json",
      cacheHint: STATIC,
    },
    async (uri, variables) => {
      const step = (await manifest()).steps.find((s) => s.id === variables.id);
      if (!step) throw new ResourceNotFoundError(uri.href, `No tool step at ${uri.href.slice(0, 120)}.`);
      return json(uri, step);
    },
  );
};

/** The rooms' own documents (src/connections/<service>/resources.ts), e.g. Marketo's recipes. */
export const roomResources: ResourceProvider = (server) => {
  const rooms: readonly AnyRoom[] = CONNECTION_KINDS.map((kind) => CONNECTION_ROOMS[kind]);
  for (const resource of rooms.flatMap((room) => room.resources ?? [])) {
    server.registerResource(
      resource.name,
      resource.uri,
      {
        title: resource.title,
        description: resource.description,
        mimeType: "application/json",
        cacheHint: STATIC,
      },
      async (uri) => json(uri, await resource.read()),
    );
  }
};

/**
 * The resources every server instance offers: the package itself, the rooms' documents (recipes), results kept for paging, and Run
 * Reports' chart view (an MCP App).
 */
export const RESOURCE_PROVIDERS: readonly ResourceProvider[] = [
  packageResources,
  roomResources,
  resultResources,
  reportChartApp,
];
