/**
 * A fake world (one token owner, a shop property with data, a property with no data, one the owner
 * cannot see) and a loopback node:http server mounting the Data API under /data, as the real sandbox does.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createDataApi, type DataApiOptions } from "../../src/sandbox/google/data/index.js";
import {
  type DataApiContext,
  type SandboxProperty,
  SCOPE_EDIT,
  SCOPE_READONLY,
  type TokenOwner,
} from "../../src/sandbox/google/types.js";

export const SHOP = "412345671"; // last digit 1: the shop profile
export const EMPTY = "412345670"; // last digit 0: a property that collected nothing
export const FOREIGN = "512345674"; // exists, but in an account the owner has no role on
export const TOKEN = "ya29.sandbox-reader";
export const EDIT_ONLY_TOKEN = "ya29.sandbox-editor";
/** 2025-06-15 18:00 UTC = 11:00 in Los Angeles. */
export const NOW = Date.UTC(2025, 5, 15, 18, 0, 0);

function property(id: string, accountId: string, timeZone: string, currencyCode = "USD"): SandboxProperty {
  return {
    id,
    accountId,
    displayName: `Property ${id}`,
    timeZone,
    currencyCode,
    createTime: "2023-01-01T00:00:00Z",
    deleted: false,
  };
}

export interface FakeWorld extends DataApiContext {
  keyEvents: Map<string, string[]>;
  clock: { now: number };
}

export function fakeWorld(): FakeWorld {
  const properties = new Map<string, SandboxProperty>([
    [SHOP, property(SHOP, "100", "America/Los_Angeles")],
    [EMPTY, property(EMPTY, "100", "Europe/Paris", "EUR")],
    [FOREIGN, property(FOREIGN, "200", "UTC")],
  ]);
  const owners = new Map<string, TokenOwner>([
    [TOKEN, { email: "ana@example.com", scopes: [SCOPE_READONLY] }],
    [EDIT_ONLY_TOKEN, { email: "ana@example.com", scopes: [SCOPE_EDIT] }],
  ]);
  const keyEvents = new Map<string, string[]>([[SHOP, ["purchase"]]]);
  const clock = { now: NOW };
  return {
    keyEvents,
    clock,
    authenticate: (header) => (header?.startsWith("Bearer ") ? owners.get(header.slice(7)) : undefined),
    property: (id) => properties.get(id),
    roleOf: (email, accountId) => (email === "ana@example.com" && accountId === "100" ? "viewer" : undefined),
    keyEventNames: (id) => keyEvents.get(id) ?? [],
    now: () => clock.now,
  };
}

export interface Sandbox {
  world: FakeWorld;
  api: ReturnType<typeof createDataApi>;
  base: string;
  close(): Promise<void>;
  post(
    path: string,
    body: unknown,
    token?: string | null,
  ): Promise<{ status: number; json: Record<string, unknown> }>;
  get(path: string, token?: string | null): Promise<{ status: number; json: Record<string, unknown> }>;
}

export async function startSandbox(options: DataApiOptions = {}): Promise<Sandbox> {
  const world = fakeWorld();
  const api = createDataApi(world, options);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const path = url.pathname.startsWith("/data") ? url.pathname.slice(5) : url.pathname;
      void api.handle(req, res, path, url, Buffer.concat(chunks).toString("utf8"));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/data`;
  const call = async (method: string, path: string, body: unknown, token: string | null | undefined) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token !== null) headers.authorization = `Bearer ${token ?? TOKEN}`;
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
    const response = await fetch(`${base}${path}`, init);
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  return {
    world,
    api,
    base,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
    post: (path, body, token) => call("POST", path, body, token),
    get: (path, token) => call("GET", path, undefined, token),
  };
}

/** Both lists are left out when empty (proto3 JSON), e.g. dimensionValues in a report without dimensions. */
export interface ApiRow {
  dimensionValues?: { value: string }[];
  metricValues?: { value: string }[];
}

export const rowsOf = (json: Record<string, unknown>): ApiRow[] => (json.rows as ApiRow[] | undefined) ?? [];
export const dims = (row: ApiRow): string[] => (row.dimensionValues ?? []).map((d) => d.value);
export const nums = (row: ApiRow): number[] => (row.metricValues ?? []).map((m) => Number(m.value));
export const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
