/**
 * Reading a /mcp request's body, bounded. A request is read only once Host, Origin and its credential passed
 * (http-app.ts): up to 4 MB then. A refused one is read only when it is small (REFUSED_BODY_BYTES), to answer
 * its JSON-RPC id; a larger one is answered with id null and its connection closed, unread. Before, every
 * body was read (4 MB) ahead of the checks: 100 connections with a foreign Host took the server from 110 to
 * 512 MiB.
 */
import type { IncomingMessage } from "node:http";
import { log } from "../log.js";
import { type JsonRpcId, requestIdOf } from "../mcp/json-rpc.js";

/** The largest body of an authenticated request. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The most read of a refused request's body (a JSON-RPC request is a few hundred bytes), to answer its id. */
export const REFUSED_BODY_BYTES = 16 * 1024;

export class BodyTooLarge extends Error {}

/** The client went away while its body was being read: nothing to answer, nothing wrong on our side. */
export class BodyAborted extends Error {}

/** Whether the declared length (Content-Length) is over `max`: refused without reading a byte. */
export function declaredOver(req: IncomingMessage, max: number): boolean {
  const declared = Number(req.headers["content-length"]);
  return Number.isFinite(declared) && declared > max;
}

/** The body as text, at most `max` bytes (more: BodyTooLarge); a client that goes away: BodyAborted. */
export async function readText(req: IncomingMessage, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > max) throw new BodyTooLarge();
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof BodyTooLarge) throw error;
    if (req.destroyed || (error as NodeJS.ErrnoException).code === "ECONNRESET") {
      // One line per aborted body at error level was a log an attacker could fill (100 aborts, 100 lines).
      log.debug({ reason: (error as Error).message }, "MCP request body aborted by the client");
      throw new BodyAborted();
    }
    throw error;
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A refused request's id: read from a small body; a large or unfinished one is not read (whole: false). */
export async function idOfRefused(req: IncomingMessage): Promise<{ id: JsonRpcId; whole: boolean }> {
  if (req.method !== "POST") return { id: null, whole: true };
  if (declaredOver(req, REFUSED_BODY_BYTES)) return { id: null, whole: false };
  try {
    return { id: requestIdOf(parsed(await readText(req, REFUSED_BODY_BYTES))), whole: true };
  } catch (error) {
    if (error instanceof BodyTooLarge || error instanceof BodyAborted) return { id: null, whole: false };
    throw error;
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
