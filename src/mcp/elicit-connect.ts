import { randomUUID } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ConfigurationError, type MartechError } from "../errors.js";
import { log } from "../log.js";
import type { Workspace } from "../workspace.js";

interface PendingSignIn {
  url: Promise<string>;
  /** Stops the loopback receiver (declined, cancelled, or the server closed). */
  controller: AbortController;
}

/** One pending sign-in per workspace: concurrent calls share it rather than open several. */
const pending = new WeakMap<Workspace, PendingSignIn>();

function startSignIn(workspace: Workspace): PendingSignIn {
  const existing = pending.get(workspace);
  if (existing) return existing;
  const controller = new AbortController();
  const started = workspace.accounts.beginConnect({ signal: controller.signal });
  const signIn: PendingSignIn = { url: started.then(({ url }) => url), controller };
  pending.set(workspace, signIn);
  const forget = () => {
    if (pending.get(workspace) === signIn) pending.delete(workspace);
  };
  started.then(
    ({ done }) =>
      done.then(
        () => {
          forget();
          workspace.accountsChanged();
        },
        (error: unknown) => {
          forget();
          if (!controller.signal.aborted)
            log.warn({ err: error }, "account connection from elicitation did not complete");
        },
      ),
    forget,
  );
  return signIn;
}

/** Stops a pending sign-in of this workspace, if any (the MCP server is closing). */
export function cancelSignIn(workspace: Workspace): void {
  pending.get(workspace)?.controller.abort();
  pending.delete(workspace);
}

/**
 * When a Google step runs with no connected account and the client supports URL-mode elicitation
 * (MCP 2025-11-25), send the client the consent URL instead of only an error: the user connects the
 * account in the browser and the tool list changes. The URL redirects to a loopback receiver on this
 * machine, so it is only offered where the user's browser runs here too (stdio, or HTTP bound to
 * loopback). Returns the error to show, or undefined when no URL can be offered.
 */
export async function offerAccountConnection(
  server: Server,
  workspace: Workspace,
  cause: MartechError,
): Promise<MartechError | undefined> {
  if (!server.getClientCapabilities()?.elicitation?.url) return undefined;
  try {
    const signIn = startSignIn(workspace);
    const url = await signIn.url;
    server
      .elicitInput({
        mode: "url",
        elicitationId: randomUUID(),
        url,
        message: "Connect a Google Analytics account for martech-steps.",
      })
      .then(
        (answer) => {
          // Declined or dismissed: nobody will open the link, so stop listening for its redirect.
          if (answer.action !== "accept") cancelSignIn(workspace);
        },
        () => undefined,
      );
    return new ConfigurationError("No Google account is connected to this workspace.", {
      hint: "A sign-in link was sent to your client: open it, allow access, then call the tool again.",
      cause,
      details: { connection: "google", elicitation: "sent" },
    });
  } catch (error) {
    log.warn({ err: error }, "could not start an account connection");
    return undefined;
  }
}
