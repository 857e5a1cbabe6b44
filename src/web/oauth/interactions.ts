/** What the consent page (the console's) may do with a sign-in in progress: read it, approve it, decline it. */
import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import { checkRedirectUri } from "./redirect-uris.js";
import { SCOPES_SUPPORTED } from "./scopes.js";

/** An authorization request waiting for the person's approval, as the consent page shows it. */
export interface PendingConsent {
  clientId: string;
  clientName: string;
  /** Where the client receives the code (its redirect URI), as the client wrote it. */
  redirectUri: string;
  /** The host (and port) that receives the code: what a person must trust (redirect-uris.ts). */
  redirectHost: string;
  /** The code goes to a program on the computer of whoever approves (http on loopback). */
  redirectLoopback: boolean;
  /** A client known by its Client ID Metadata Document: the host that publishes it (the draft, section 8.5). */
  clientIdHost?: string;
  /** The scopes the approval grants on /mcp. */
  scopes: string[];
}

/** An approval the server could not keep: its store is full (memory-store.ts); the page says when to retry. */
export interface ApprovalRefused {
  retryAfterSeconds: number | undefined;
}

/** What the consent page may do with the request in progress (the cookies of `req` name it). */
export interface Interactions {
  pending(req: IncomingMessage, res: ServerResponse): Promise<PendingConsent | undefined>;
  /**
   * Grants the client the pending scopes for `workspace` and answers with the redirect back to the flow;
   * or, the server's store being full, answers nothing and says so.
   */
  approve(req: IncomingMessage, res: ServerResponse, workspace: string): Promise<ApprovalRefused | undefined>;
  /** Refuses: the client gets access_denied. */
  deny(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** The scopes an approval grants: those asked for that /mcp knows, else (none asked) both. */
function grantedScopes(requested: unknown): string[] {
  const asked = typeof requested === "string" ? requested.split(" ") : [];
  const known = SCOPES_SUPPORTED.filter((scope) => asked.includes(scope));
  return known.length > 0 ? known : [...SCOPES_SUPPORTED];
}

export function interactionsOf(provider: Provider, audience: string): Interactions {
  return {
    async pending(req, res) {
      let details: Awaited<ReturnType<Provider["interactionDetails"]>>;
      try {
        details = await provider.interactionDetails(req, res);
      } catch {
        return undefined;
      }
      const clientId = String(details.params.client_id ?? "");
      const client = await provider.Client.find(clientId).catch(() => undefined);
      const redirectUri = String(details.params.redirect_uri ?? "");
      const redirect = checkRedirectUri(redirectUri);
      // Checked at registration and at the request already; a request that fails here is not shown.
      if (!client || !redirect.ok) return undefined;
      const documented = (client as { clientIdMetadataDocument?: boolean }).clientIdMetadataDocument === true;
      return {
        clientId,
        clientName: String(client.clientName ?? clientId),
        redirectUri,
        redirectHost: redirect.host,
        redirectLoopback: redirect.loopback,
        ...(documented ? { clientIdHost: new URL(clientId).host } : {}),
        scopes: grantedScopes(details.params.scope),
      };
    },
    async approve(req, res, workspace) {
      const details = await provider.interactionDetails(req, res);
      const grant = new provider.Grant({ accountId: workspace, clientId: String(details.params.client_id) });
      const scopes = grantedScopes(details.params.scope);
      // oidc-provider counts every scope of its `scopes` as asked of itself too (its consent checks both).
      const asked = typeof details.params.scope === "string" ? details.params.scope.split(" ") : [];
      const oidc = asked.filter((scope) => scope === "openid" || scope === "offline_access");
      grant.addOIDCScope([...oidc, ...scopes].join(" "));
      grant.addResourceScope(audience, scopes.join(" "));
      let grantId: string;
      try {
        grantId = await grant.save();
      } catch (error) {
        const retryAfterMs = (error as { retryAfterMs?: unknown }).retryAfterMs;
        if ((error as { status?: unknown }).status !== 503) throw error;
        return {
          retryAfterSeconds: typeof retryAfterMs === "number" ? Math.ceil(retryAfterMs / 1000) : undefined,
        };
      }
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: workspace }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
      return undefined;
    },
    async deny(req, res) {
      await provider.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: "The person declined this client's access." },
        { mergeWithLastSubmission: false },
      );
    },
  };
}
