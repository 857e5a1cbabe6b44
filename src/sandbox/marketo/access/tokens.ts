/**
 * Access tokens of the identity service. Real behaviour (ADE authentication.md): while a token is
 * valid, asking again returns the SAME token with its remaining lifetime; tokens look like
 * "<uuid>:<pod>". An expired token is still recognised (→ 602), an unknown one is not (→ 601).
 */
import { randomUUID } from "node:crypto";

export type TokenCheck = { ok: true } | { ok: false; code: "601" | "602"; message: string };

export class TokenStore {
  private readonly expiries = new Map<string, number>();
  private current: string | undefined;

  constructor(
    private readonly ttlSeconds: number,
    private readonly now: () => number,
  ) {}

  /** The live token and its remaining whole seconds; issues a new one when none is live. */
  issue(): { token: string; expiresIn: number } {
    const t = this.now();
    if (this.current !== undefined) {
      const remaining = Math.floor(((this.expiries.get(this.current) ?? 0) - t) / 1000);
      if (remaining >= 1) return { token: this.current, expiresIn: remaining };
    }
    // Random, not seeded: a token is a credential, and predictable tokens would teach bad habits.
    const token = `${randomUUID()}:sbx`;
    this.expiries.set(token, t + this.ttlSeconds * 1000);
    this.current = token;
    return { token, expiresIn: this.ttlSeconds };
  }

  check(token: string | undefined): TokenCheck {
    const expiry = token === undefined ? undefined : this.expiries.get(token);
    if (expiry === undefined) return { ok: false, code: "601", message: "Access token invalid" };
    if (expiry <= this.now()) return { ok: false, code: "602", message: "Access token expired" };
    return { ok: true };
  }

  /** Makes every issued token expired; the next identity call issues a fresh one. */
  expireAll(): void {
    const past = this.now() - 1;
    for (const token of this.expiries.keys()) this.expiries.set(token, past);
  }
}

/** Extracts the bearer token; undefined when the header is missing or uses another scheme. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}
