import { randomUUID } from "node:crypto";
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type McpServer,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { ACCOUNTS_KIND, type AnyRoom, connectionRoom } from "../connections/registry.js";
import type { RoomSignIn } from "../connections/types.js";
import { type AnyMartechError, ConfigurationError, type MartechError } from "../errors.js";
import { log } from "../log.js";
import type { Workspace } from "../workspace.js";

interface PendingSignIn {
  url: Promise<string>;
  /** Settles when the sign-in ends: connected, refused, timed out or cancelled. */
  done: Promise<void>;
  /** Stops the loopback receiver (declined, cancelled, or the server that started it closed). */
  controller: AbortController;
  /** The MCP server that started it: only that one's closing cancels it. */
  owner: object;
}

/** One pending sign-in per workspace: concurrent calls share it rather than open several. */
const pending = new WeakMap<Workspace, PendingSignIn>();

/**
 * The sign-in offered: the one of the room that holds the connected accounts (`accounts` in the registry),
 * since `workspace.accounts` is what connects the account; none when that room has none.
 */
const SIGN_IN: RoomSignIn | undefined = (connectionRoom(ACCOUNTS_KIND) as AnyRoom).signIn;

/** The sign-in that would fix a step's error (no account connected), if one. */
export function signInFor(error: AnyMartechError): RoomSignIn | undefined {
  return SIGN_IN?.isNotConnected(error) ? SIGN_IN : undefined;
}

function startSignIn(workspace: Workspace, owner: object): PendingSignIn {
  const existing = pending.get(workspace);
  if (existing) return existing;
  const controller = new AbortController();
  const started = workspace.accounts.beginConnect({ signal: controller.signal });
  const forget = () => {
    if (pending.get(workspace) === signIn) pending.delete(workspace);
  };
  const done = started.then(({ done: connected }) =>
    connected.then(
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
  );
  const signIn: PendingSignIn = {
    url: started.then(({ url }) => url),
    done: done.catch(forget),
    controller,
    owner,
  };
  pending.set(workspace, signIn);
  return signIn;
}

/**
 * Stops the pending sign-in of this workspace: the one `owner` started (its MCP server is closing),
 * or any (the user declined the link).
 */
export function cancelSignIn(workspace: Workspace, owner?: object): void {
  const signIn = pending.get(workspace);
  if (!signIn || (owner !== undefined && signIn.owner !== owner)) return;
  signIn.controller.abort();
  pending.delete(workspace);
}

/**
 * 2025-11-25: when a step runs with no connected account (the room's `signIn.isNotConnected` knows the
 * error) and the client supports URL-mode elicitation, send the client the consent URL instead of only an
 * error: the user connects the account in the browser and the tool list changes. The URL redirects to a
 * loopback receiver on this machine, so it is only offered where the user's browser runs here too (stdio,
 * or HTTP bound to loopback).
 * Returns the error to show, or undefined when no URL can be offered.
 */
export async function offerAccountConnection(
  server: McpServer,
  workspace: Workspace,
  signIn: RoomSignIn,
  cause: MartechError,
): Promise<MartechError | undefined> {
  if (!server.server.getClientCapabilities()?.elicitation?.url) return undefined;
  try {
    const url = await startSignIn(workspace, server).url;
    const message = signIn.message;
    server.server.elicitInput({ mode: "url", elicitationId: randomUUID(), url, message }).then(
      (answer) => {
        // Declined or dismissed: nobody will open the link, so stop listening for its redirect.
        if (answer.action !== "accept") cancelSignIn(workspace);
      },
      () => undefined,
    );
    return new ConfigurationError(signIn.notConnected, {
      hint: "A sign-in link was sent to your client: open it, allow access, then call the tool again.",
      cause,
      details: { connection: ACCOUNTS_KIND, elicitation: "sent" },
    });
  } catch (error) {
    log.warn({ err: error }, "could not start an account connection");
    return undefined;
  }
}

/**
 * 2026-07-28 has no server-to-client requests: the call answers "input required" with the sign-in
 * link (URL-mode elicitation), and the client calls again once the user has seen it. Undefined when
 * the request did not declare URL elicitation (asking anyway would be refused with -32021).
 */
export async function signInInputRequired(
  ctx: ServerContext,
  workspace: Workspace,
  signIn: RoomSignIn,
  owner: object,
): Promise<InputRequiredResult | undefined> {
  // The SDK types the envelope as an empty object; its keys are the spec's reserved _meta names.
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  if (!capabilities?.elicitation?.url) return undefined;
  try {
    const url = await startSignIn(workspace, owner).url;
    return inputRequired({
      inputRequests: { [signIn.key]: inputRequired.elicitUrl({ url, message: signIn.message }) },
    });
  } catch (error) {
    log.warn({ err: error }, "could not start an account connection");
    return undefined;
  }
}

/**
 * On the retry of a 2026-07-28 call that carries the user's answer to the sign-in link: declined, stop
 * listening for the redirect; accepted, wait (bounded by the sign-in's own timeout and the request's
 * signal) for the sign-in to finish, so the retried call runs with the new account.
 */
export async function signInAnswer(
  ctx: ServerContext,
  workspace: Workspace,
  whileWaiting: (message: string) => void,
): Promise<void> {
  if (!SIGN_IN) return;
  const { key, waiting } = SIGN_IN;
  const answer = inputResponse(ctx.mcpReq.inputResponses, key);
  if (answer.kind !== "elicit") return;
  if (answer.action !== "accept") {
    cancelSignIn(workspace);
    return;
  }
  const signIn = pending.get(workspace);
  if (!signIn) return;
  const signal = ctx.mcpReq.signal;
  const heartbeat = setInterval(() => whileWaiting(waiting), 10_000);
  whileWaiting(waiting);
  try {
    await Promise.race([
      signIn.done,
      new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true })),
    ]);
  } finally {
    clearInterval(heartbeat);
  }
}
