import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from "node:crypto";
import { ConfigurationError } from "../errors.js";
import { SECRETS_PARTS } from "./secrets-parts.js";
import type { WorkspaceSecrets } from "./store-core.js";
import type { Unopenable } from "./unopenable.js";

/**
 * The sealed document format shared by the file and the Redis store: AES-256-GCM with a random
 * 96-bit IV per write and the workspace name as authenticated data, so one workspace's document
 * cannot be passed off as another's.
 *
 * GCM alone cannot tell a wrong key from a damaged document: both fail the authentication tag. So
 * each document also carries `kid`, an HMAC of a constant under the key (it identifies the key and
 * reveals nothing about it), and `sum`, a plain SHA-256 of the other fields. A flipped or missing
 * byte anywhere breaks `sum` (damaged); an intact document whose `kid` is not ours was written with
 * another key. Documents written before these two fields existed are still read; for them a failed
 * tag can only be reported as "another key or damaged", and is treated as another key, so that
 * nothing that may be intact is ever moved aside.
 */
const ALGORITHM = "aes-256-gcm";
const FORMAT = "martech-steps/v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

interface SealedDocument {
  format: string;
  iv: string;
  tag: string;
  data: string;
  kid?: string;
  sum?: string;
}

export type { Unopenable } from "./unopenable.js";

export type Opened = { ok: true; secrets: WorkspaceSecrets } | ({ ok: false } & Unopenable);

export function keyId(key: Buffer): string {
  return createHmac("sha256", key).update("martech-steps store key id").digest("base64").slice(0, 22);
}

function checksum(doc: Omit<SealedDocument, "sum">): string {
  return createHash("sha256")
    .update(JSON.stringify([doc.format, doc.iv, doc.tag, doc.data, doc.kid ?? null]))
    .digest("base64");
}

export function sealSecrets(key: Buffer, secrets: WorkspaceSecrets, workspace: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(Buffer.from(`${FORMAT}:${workspace}`));
  const data = Buffer.concat([cipher.update(JSON.stringify(secrets), "utf8"), cipher.final()]);
  const doc = {
    format: FORMAT,
    iv: iv.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
    data: data.toString("base64"),
    kid: keyId(key),
  };
  return JSON.stringify({ ...doc, sum: checksum(doc) });
}

const damaged = (why: string): Opened => ({ ok: false, reason: "damaged", why });

/** Parses the outer document; any shape problem means the bytes are damaged (or not ours). */
function parseDocument(stored: string): SealedDocument | string {
  if (stored.trim() === "") return "the file is empty";
  let doc: unknown;
  try {
    doc = JSON.parse(stored);
  } catch {
    return "it is not valid JSON (truncated?)";
  }
  if (doc === null || typeof doc !== "object" || (doc as SealedDocument).format !== FORMAT) {
    return "it is not a martech-steps store document";
  }
  const { iv, tag, data, kid, sum } = doc as Record<string, unknown>;
  for (const [name, value] of [
    ["iv", iv],
    ["tag", tag],
    ["data", data],
  ] as const) {
    if (typeof value !== "string" || !BASE64.test(value)) return `its ${name} is not base64 (truncated?)`;
  }
  if ((kid !== undefined && typeof kid !== "string") || (sum !== undefined && typeof sum !== "string")) {
    return "its key id or checksum is not text";
  }
  return doc as SealedDocument;
}

function isSecrets(value: unknown): value is WorkspaceSecrets {
  if (value === null || typeof value !== "object") return false;
  return SECRETS_PARTS.every((part) => part.valid(value));
}

/** Opens a stored document, telling a damaged one from one written with another key. */
export function openSecrets(key: Buffer, stored: string, workspace: string): Opened {
  const doc = parseDocument(stored);
  if (typeof doc === "string") return damaged(doc);
  if (doc.sum !== undefined && doc.sum !== checksum(doc)) {
    return damaged("its checksum does not match (bytes were changed or cut)");
  }
  const iv = Buffer.from(doc.iv, "base64");
  const tag = Buffer.from(doc.tag, "base64");
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
    return damaged("its IV or tag has the wrong length");
  if (doc.kid !== undefined && doc.kid !== keyId(key)) {
    return { ok: false, reason: "wrong_key", why: "it was written with another key" };
  }
  let plain: string;
  try {
    const decipher = createDecipheriv(ALGORITHM, key, iv);
    decipher.setAAD(Buffer.from(`${FORMAT}:${workspace}`));
    decipher.setAuthTag(tag);
    plain = Buffer.concat([decipher.update(Buffer.from(doc.data, "base64")), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    // Checksum and key id match yet the tag fails: the document was altered, or it is another
    // workspace's document copied over this one (the workspace name is authenticated).
    if (doc.kid !== undefined && doc.sum !== undefined) {
      return damaged(
        "it fails authentication although its key matches (altered, or another workspace's file)",
      );
    }
    return { ok: false, reason: "wrong_key", why: "it was written with another key, or altered" };
  }
  let secrets: unknown;
  try {
    secrets = JSON.parse(plain);
  } catch {
    return damaged("its decrypted content is not JSON");
  }
  if (!isSecrets(secrets)) return damaged("its decrypted content is not a workspace's secrets");
  return { ok: true, secrets: SECRETS_PARTS.reduce((opened, part) => part.opened(opened), secrets) };
}

/** A stored document that cannot be opened: damaged, or written with another key. It is left as it is. */
export class StoreUnreadableError extends ConfigurationError {
  readonly reason: Unopenable["reason"];

  /** `keySource` names the key in use ("MARTECH_STEPS_KEY", "the key file <path>"), never the key. */
  constructor(workspace: string, problem: Unopenable, keySource: string) {
    const subject = `The credential store of workspace "${workspace}"`;
    const flag = workspace === "default" ? "" : ` --workspace ${workspace}`;
    const startOver = SECRETS_PARTS.flatMap((part) => part.startOver?.(flag) ?? []).join(", or ");
    super(
      problem.reason === "wrong_key"
        ? `${subject} cannot be opened with the key in use (${keySource}): ${problem.why}.`
        : `${subject} is damaged (${problem.why}).`,
      {
        hint:
          problem.reason === "wrong_key"
            ? `Restore the key it was written with, or start over with ${startOver}: the old file is kept aside.`
            : `Start over with ${startOver}: the damaged file is kept aside, and its connections must be made again.`,
        details: { reason: problem.reason },
      },
    );
    this.reason = problem.reason;
  }
}
