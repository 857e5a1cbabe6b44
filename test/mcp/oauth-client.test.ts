import {
  ClientCredentialsProvider,
  Client as ModernClient,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import { oauthSettings } from "../../src/settings.js";
import { CANARY_SECRET, type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { CLIENT, startIssuer, type TestIssuer } from "../helpers/oidc-issuer.js";
import { allowStderr } from "../helpers/stderr.js";

/**
 * An MCP client that knows nothing but the server's URL signs in through an external issuer configured by
 * settings alone (issue 20, item 1): the SDK's own OAuth client (an OAuthClientProvider, here its client
 * credentials provider, as a hosted agent's backend uses) follows the 401 to the Protected Resource
 * Metadata, the issuer's metadata and its token endpoint, asks for a token for this server (RFC 8707), and
 * calls a step with it.
 */
describe("the MCP SDK client's OAuth flow against an external issuer", () => {
  let issuer: TestIssuer;
  let fixture: MarketoFixture;
  let http: HttpServerHandle;

  beforeAll(async () => {
    allowStderr(/oidc-provider WARNING/);
    issuer = await startIssuer();
    fixture = await marketoFixture();
    http = await startHttpServer({
      port: 0,
      workspace: () => fixture.workspace,
      oauth: oauthSettings({ MARTECH_STEPS_OAUTH_ISSUER: issuer.issuer }),
    });
  });
  afterAll(async () => {
    await http.close();
    await fixture.close();
    await issuer.close();
  });

  it("discovers the issuer from the 401, gets a token for /mcp and calls a write step", async () => {
    const provider = new ClientCredentialsProvider({
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      expectedIssuer: issuer.issuer,
    });
    const client = new ModernClient({ name: "oauth-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { authProvider: provider }));
    try {
      const token = provider.tokens()?.access_token;
      expect(token).toBeTruthy();
      const claims = JSON.parse(
        Buffer.from((token as string).split(".")[1] as string, "base64url").toString(),
      );
      expect(claims).toMatchObject({ iss: issuer.issuer, aud: http.url, scope: "steps:read steps:write" });
      const result = await client.callTool({
        name: "marketo_api_call",
        arguments: {
          method: "POST",
          endpoint: "/rest/v1/leads.json",
          body: { input: [{ email: "a@b.example" }] },
        },
      });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result)).not.toContain(CANARY_SECRET);
    } finally {
      await client.close();
    }
  });
});
