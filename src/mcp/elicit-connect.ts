import { randomUUID } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ConfigurationError, type MartechError } from "../errors.js";
import { log } from "../log.js";
import type { Workspace } from "../workspace.js";

/** One pending sign-in per workspace: concurrent calls share it rather than open several. */
const pending = new WeakMap<Workspace, Promise<{ url: string }>>();

function startConnect(workspace: Workspace): Promise<{ url: string }> {
  let started = pending.get(workspace);
  if (!started) {
    started = workspace.accounts.beginConnect({}).then(({ url, done }) => {
      done.then(
        () => workspace.accountsChanged(),
        (error: unknown) => log.warn({ err: error }, "account connection from elicitation did not complete"),
      );
      done.finally(() => pending.delete(workspace)).catch(() => undefined);
      return { url };
    });
    started.catch(() => pending.delete(workspace));
    pending.set(workspace, started);
  }
  return started;
}

/**
 * When a Google step runs with no connected account and the client supports URL-mode elicitation
 * (MCP 2025-11-25), send the client the consent URL instead of only an error: the user connects the
 * account in the browser and the tool list changes. Returns the error to show, or undefined when the
 * client cannot take a URL.
 */
export async function offerAccountConnection(
  server: Server,
  workspace: Workspace,
  cause: MartechError,
): Promise<MartechError | undefined> {
  if (!server.getClientCapabilities()?.elicitation?.url) return undefined;
  try {
    const { url } = await startConnect(workspace);
    server
      .elicitInput({
        mode: "url",
        elicitationId: randomUUID(),
        url,
        message: "Connect a Google Analytics account for martech-steps.",
      })
      .catch(() => undefined);
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
