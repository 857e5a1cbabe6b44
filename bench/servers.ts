/**
 * The bench's upstream side, in a process of its own (as a real service is): Marketo and Google
 * sandboxes, and a Marketo-shaped stub that pages through as many generated leads as asked (the
 * sandbox keeps its data in memory; a million leads would measure the sandbox, not the client).
 * Driven over IPC by bench/lib/upstream.ts. Everything listens on 127.0.0.1.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type GoogleSandbox,
  type MarketoSandbox,
  type MarketoSandboxOptions,
  SANDBOX_GOOGLE_USER,
  startGoogleSandbox,
  startMarketoSandbox,
} from "../src/sandbox/index.js";
import type { UpstreamReply, UpstreamRequest } from "./lib/upstream.js";

const marketos = new Map<number, MarketoSandbox>();
const googles = new Map<number, GoogleSandbox>();
const stubs = new Map<number, Server>();
let nextHandle = 1;

const PAGE = 300;
const TOKEN = "stub-access-token";

/** One page of `total` generated leads, Marketo's envelope and paging (REAL-API A6). */
function leadsPage(offset: number, total: number): string {
  const end = Math.min(total, offset + PAGE);
  const result: string[] = [];
  for (let id = offset + 1; id <= end; id++) {
    result.push(
      `{"id":${id},"email":"lead${id}@example.com","firstName":"First${id}","lastName":"Last${id}","updatedAt":"2024-01-31T12:00:00Z","createdAt":"2023-01-31T12:00:00Z"}`,
    );
  }
  const next =
    end < total
      ? `,"nextPageToken":"${Buffer.from(String(end)).toString("base64url")}","moreResult":true`
      : "";
  return `{"requestId":"stub#${offset}","success":true,"result":[${result.join(",")}]${next}}`;
}

function startLeadStub(total: number): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/identity/oauth/token") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ access_token: TOKEN, token_type: "bearer", expires_in: 3600, scope: "stub" }));
      return;
    }
    if (
      url.pathname !== "/rest/v1/lists/1001/leads.json" ||
      req.headers.authorization !== `Bearer ${TOKEN}`
    ) {
      res.writeHead(404).end();
      return;
    }
    const token = url.searchParams.get("nextPageToken");
    const offset = token ? Number(Buffer.from(token, "base64url").toString()) : 0;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(leadsPage(offset, total));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function handle(request: UpstreamRequest): Promise<unknown> {
  switch (request.cmd) {
    case "marketo": {
      const sandbox = await startMarketoSandbox(request.options as MarketoSandboxOptions);
      const handle = nextHandle++;
      marketos.set(handle, sandbox);
      const { url, restEndpoint, clientId, clientSecret } = sandbox;
      return { handle, url, restEndpoint, clientId, clientSecret };
    }
    case "marketo-stats":
      return marketos.get(request.handle)?.stats();
    case "marketo-reset":
      marketos.get(request.handle)?.resetStats();
      return null;
    case "google": {
      const sandbox = await startGoogleSandbox({
        data: { tokensPerHour: 1e9, tokensPerDay: 1e9, latencyMs: request.latencyMs },
      });
      const handle = nextHandle++;
      googles.set(handle, sandbox);
      const { url, dataApiUrl, adminApiUrl, oauthUrl, authorizeUrl, clientId, clientSecret } = sandbox;
      return {
        handle,
        url,
        dataApiUrl,
        adminApiUrl,
        oauthUrl,
        authorizeUrl,
        clientId,
        clientSecret,
        refreshToken: sandbox.issueRefreshToken(SANDBOX_GOOGLE_USER),
      };
    }
    case "google-stats":
      return googles.get(request.handle)?.stats();
    case "leads": {
      const server = await startLeadStub(request.total);
      const handle = nextHandle++;
      stubs.set(handle, server);
      return { handle, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    }
    case "close": {
      await marketos.get(request.handle)?.close();
      await googles.get(request.handle)?.close();
      const stub = stubs.get(request.handle);
      if (stub) {
        stub.closeAllConnections();
        await new Promise((resolve) => stub.close(resolve));
      }
      marketos.delete(request.handle);
      googles.delete(request.handle);
      stubs.delete(request.handle);
      return null;
    }
  }
}

process.on("message", (message: { id: number; request: UpstreamRequest }) => {
  handle(message.request).then(
    (value) => process.send?.({ id: message.id, ok: true, value } satisfies UpstreamReply),
    (error: unknown) =>
      process.send?.({ id: message.id, ok: false, error: String(error) } satisfies UpstreamReply),
  );
});
process.on("disconnect", () => process.exit(0));
process.send?.({ id: 0, ok: true, value: "ready" } satisfies UpstreamReply);
