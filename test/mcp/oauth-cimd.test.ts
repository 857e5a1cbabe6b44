import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CLIENT_DOCUMENT_CACHE_SECONDS } from "../../src/web/oauth/provider-config.js";
import {
  clientDocument,
  type DocumentServer,
  documentLookup,
  startDocumentServer,
} from "../helpers/document-server.js";
import { authorize, type EmbeddedFixture, startEmbeddedFixture } from "../helpers/embedded-as.js";
import { RecordingOAuthProvider, ScriptedBrowser } from "../helpers/oauth-browser.js";

/**
 * Issue 26, item 7: Client ID Metadata Documents (the 2026-07-28 MCP authorization specification prefers
 * them to registration). A client_id that is an https URL is fetched under the SSRF rules (guarded-fetch.ts),
 * its document's client_id must equal the URL, its redirect URIs pass item 4's rules, and it is cached as its
 * Cache-Control allows within a floor and a ceiling. The document host here is a local HTTPS server
 * (cimd.test, a certificate made for the test), reached through the test-only loopback allowance.
 */
class HostedAgent extends RecordingOAuthProvider {
  constructor(readonly clientMetadataUrl: string) {
    super();
  }
}

describe("Client ID Metadata Documents on the embedded authorization server", () => {
  let documents: DocumentServer;
  let as: EmbeddedFixture;
  beforeAll(async () => {
    documents = await startDocumentServer();
    as = await startEmbeddedFixture({
      tuning: {
        testOnlyLoopbackDocuments: { ca: documents.ca },
        testOnlyLookup: documentLookup,
        requestRules: { fetch: { burst: 100, everyMs: 1 } },
      },
    });
  });
  afterAll(async () => {
    await as.close();
    await documents.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const fetchesOf = (path: string) => documents.requests.filter((requested) => requested === path).length;

  it("advertises them, and the MCP SDK's client signs in with its document's URL as client_id", async () => {
    expect((await as.metadata()).client_id_metadata_document_supported).toBe(true);
    const url = `${documents.origin}/agent.json`;
    documents.document("/agent.json", clientDocument(url), { "cache-control": "max-age=600" });
    const signedIn = await as.signIn(new HostedAgent(url));
    expect(signedIn.clientId).toBe(url);
    const claims = JSON.parse(
      Buffer.from(signedIn.accessToken.split(".")[1] as string, "base64url").toString(),
    );
    expect(claims.client_id).toBe(url);
    expect((await as.mcp(signedIn.accessToken)).status).toBe(200);
    expect(fetchesOf("/agent.json")).toBe(1);
  });

  it("names the host that publishes the document on the consent page, read again when its cache ran out", async () => {
    const url = `${documents.origin}/named.json`;
    documents.document("/named.json", clientDocument(url), { "cache-control": "no-store" });
    const browser = new ScriptedBrowser(as.base);
    await browser.request("GET", `/${new URL(as.web.loginUrl(as.base)).search}`);
    const query = new URLSearchParams({
      client_id: url,
      response_type: "code",
      redirect_uri: "http://127.0.0.1:9/callback",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
    });
    await browser.follow(`/oauth/auth?${query}`);
    // The person took over a minute to log in: the document's cache (its floor) ran out.
    const later = Date.now() + (CLIENT_DOCUMENT_CACHE_SECONDS.min + 5) * 1000;
    vi.spyOn(Date, "now").mockImplementation(() => later);
    const page = await browser.request("GET", browser.lastGetPath);
    expect(fetchesOf("/named.json")).toBe(2);
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain(`a document that <strong>cimd.test:${documents.port}</strong> publishes`);
    expect(page.text).toContain("<h2>Its access goes to 127.0.0.1:9</h2>");
  });

  it("refuses a document whose client_id differs, that redirects, is too large, is not JSON or names a dangerous redirect URI", async () => {
    const cases: [string, (url: string) => void][] = [
      ["/other-id.json", (url) => documents.document("/other-id.json", clientDocument(`${url}x`))],
      [
        "/moved.json",
        () =>
          documents.route("/moved.json", (_req, res) =>
            res.writeHead(302, { location: "/agent.json" }).end(),
          ),
      ],
      [
        "/large.json",
        (url) => documents.document("/large.json", clientDocument(url, { pad: "x".repeat(6_000) })),
      ],
      ["/text.json", () => documents.document("/text.json", "not json")],
      [
        "/evil-redirect.json",
        (url) =>
          documents.document(
            "/evil-redirect.json",
            clientDocument(url, { redirect_uris: ["http://127.0.0.1:9/callback", "http://evil.example/cb"] }),
          ),
      ],
      ["/absent.json", () => undefined],
    ];
    const before = documents.requests.length;
    for (const [path, serve] of cases) {
      const url = `${documents.origin}${path}`;
      serve(url);
      const answer = await authorize(as.base, url, { redirect_uri: "http://127.0.0.1:9/callback" });
      expect(answer.status, path).toBe(400);
      expect(await answer.text(), path).toMatch(/invalid_client|invalid_redirect_uri/);
    }
    // One request each, the redirect not followed (/agent.json not asked again).
    expect(documents.requests.slice(before)).toEqual(cases.map(([path]) => path));
  });

  it("keeps a document as long as its Cache-Control says, within the floor and the ceiling", async () => {
    const { min, max } = CLIENT_DOCUMENT_CACHE_SECONDS;
    const at = (seconds: number) => {
      const real = Date.now;
      const base = real();
      vi.spyOn(Date, "now").mockImplementation(() => base + seconds * 1000);
    };
    const serve = async (path: string, cacheControl: string, steps: [number, number][]) => {
      const url = `${documents.origin}${path}`;
      documents.document(path, clientDocument(url), { "cache-control": cacheControl });
      for (const [seconds, fetched] of steps) {
        vi.restoreAllMocks();
        if (seconds > 0) at(seconds);
        expect((await authorize(as.base, url, { redirect_uri: "http://127.0.0.1:9/callback" })).status).toBe(
          303,
        );
        expect(fetchesOf(path), `${cacheControl} at ${seconds} s`).toBe(fetched);
      }
    };
    await serve("/no-store.json", "no-store", [
      [0, 1],
      [min - 5, 1],
      [min + 5, 2],
    ]);
    await serve("/two-minutes.json", "max-age=120", [
      [0, 1],
      [100, 1],
      [125, 2],
    ]);
    await serve("/a-day.json", "max-age=86400", [
      [0, 1],
      [max - 10, 1],
      [max + 10, 2],
    ]);
  });
});

describe("Client ID Metadata Documents without the test allowance (as deployed)", () => {
  let documents: DocumentServer;
  let as: EmbeddedFixture;
  beforeAll(async () => {
    documents = await startDocumentServer();
    as = await startEmbeddedFixture();
  });
  afterAll(async () => {
    await as.close();
    await documents.close();
  });

  it("never connects to a document on a loopback address", async () => {
    const url = `https://127.0.0.1:${documents.port}/agent.json`;
    documents.document("/agent.json", clientDocument(url));
    const answer = await authorize(as.base, url, { redirect_uri: "http://127.0.0.1:9/callback" });
    expect(answer.status).toBe(400);
    expect(documents.connections).toBe(0);
  });

  it("refuses the test allowance when the server's public URL or its interface is not on loopback", async () => {
    await expect(
      startEmbeddedFixture({ tuning: { testOnlyLoopbackDocuments: { ca: documents.ca } } }).then((other) =>
        other.close(),
      ),
    ).resolves.toBeUndefined();
    const { startEmbedded } = await import("../../src/web/oauth/embedded.js");
    await expect(
      startEmbedded({
        audience: "https://mcp.example.com/mcp",
        consent: async () => undefined,
        testOnlyLoopbackDocuments: { ca: documents.ca },
      }),
    ).rejects.toThrow(/test-only loopback allowance .* is refused/);
    // Nor on a server listening off loopback, whatever its public URL (an https one: an http one is refused
    // off loopback before the allowance is looked at).
    const { startHttpServer } = await import("../../src/host/http.js");
    await expect(
      startHttpServer({
        host: "0.0.0.0",
        port: 0,
        workspace: () => as.marketo.workspace,
        oauth: {
          mode: "embedded",
          audience: "https://127.0.0.1:1/mcp",
          consent: as.web.consent,
          embedded: { testOnlyLoopbackDocuments: { ca: documents.ca } },
        },
      }),
    ).rejects.toThrow(/refused on 0\.0\.0\.0: it is for servers bound to loopback/);
  });
});

describe("the per-address allowance of Client ID Metadata Document fetches", () => {
  let documents: DocumentServer;
  let as: EmbeddedFixture;
  beforeAll(async () => {
    documents = await startDocumentServer();
    as = await startEmbeddedFixture({
      tuning: { testOnlyLoopbackDocuments: { ca: documents.ca }, testOnlyLookup: documentLookup },
    });
  });
  afterAll(async () => {
    await as.close();
    await documents.close();
  });

  it("fetches 10 documents for one address at once, then refuses the 11th without fetching it", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const url = `${documents.origin}/agent-${i}.json`;
      documents.document(`/agent-${i}.json`, clientDocument(url));
      statuses.push((await authorize(as.base, url, { redirect_uri: "http://127.0.0.1:9/callback" })).status);
    }
    expect(statuses).toEqual([...Array(10).fill(303), 400]);
    expect(documents.requests).toHaveLength(10);
  });
});
