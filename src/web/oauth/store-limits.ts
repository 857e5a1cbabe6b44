/**
 * How much of each kind the embedded authorization server's store holds (memory-store.ts), and how large one
 * entry may be. Sized from what real clients send, measured: a registration of the MCP SDK is 540 bytes of
 * JSON, a sign-in request 760, a grant 310, a code 550, a refresh token 490, a browser session 400 (it grows
 * by about 100 per client signed in from that browser); a Client ID Metadata Document is read only up to
 * 5 KB. With room to spare, so that the whole store stays bounded: at every cap with every entry at its
 * largest, the JSON held is the sum of max × maxBytes below, 75 MiB (scripts/oauth-store-bound.ts measures
 * the heap it takes).
 */

export interface KindLimits {
  /** Entries held at once. */
  max: number;
  /** The largest entry, as JSON bytes. */
  maxBytes: number;
  /** The longest an entry is kept, whatever expiry it is stored with (seconds). */
  maxLifeSeconds?: number;
}

/** Caps a test (or an operator's code) may lower; every kind not named keeps its default. */
export interface StoreLimits {
  kinds?: Readonly<Record<string, Partial<KindLimits>>>;
  /** Refresh tokens (and codes) one grant holds at once; its own oldest used one goes first. */
  perGrant?: number;
}

const KB = 1024;

/** oidc-provider's clockTolerance (its default, stated in provider-config.ts). */
export const PROVIDER_CLOCK_TOLERANCE_SECONDS = 15;
/**
 * How far ahead a client assertion's `exp` may be: RFC 7523 section 3 lets a server refuse a JWT whose exp is
 * "unreasonably far in the future" (https://www.rfc-editor.org/rfc/rfc7523#section-3). The MCP SDK signs its
 * assertions for 300 s; provider-config.ts refuses one further ahead than this plus the clock tolerance.
 */
export const CLIENT_ASSERTION_MAX_SECONDS = 5 * 60;
/**
 * The longest a replay guard's entry is needed: an assertion is kept until its exp plus the tolerance (at most
 * CLIENT_ASSERTION_MAX_SECONDS and twice the tolerance from now), a DPoP proof 300 s (oidc-provider's
 * CHALLENGE_OK_WINDOW, lib/helpers/validate_dpop.js). Past it the proof is refused as too old anyway, so an
 * entry kept longer guards nothing: without this bound an assertion's own exp (10 years ahead) kept its entry
 * for 10 years, and 2,000 of them locked every DPoP and private_key_jwt client out until a restart.
 */
export const REPLAY_MAX_LIFE_SECONDS = CLIENT_ASSERTION_MAX_SECONDS + 2 * PROVIDER_CLOCK_TOLERANCE_SECONDS;

export const KIND_LIMITS: Readonly<Record<string, KindLimits>> = {
  // Created by anyone, without a credential: a registration (RFC 7591), a sign-in request and its
  // browser session, a pushed request (RFC 9126), a replay guard's entry.
  Client: { max: 1_000, maxBytes: 8 * KB },
  Interaction: { max: 2_000, maxBytes: 8 * KB },
  Session: { max: 1_000, maxBytes: 8 * KB },
  PushedAuthorizationRequest: { max: 1_000, maxBytes: 8 * KB },
  ReplayDetection: { max: 2_000, maxBytes: KB, maxLifeSeconds: REPLAY_MAX_LIFE_SECONDS },
  // Created only once a person approved a client on the consent page, and by that client's own tokens.
  Grant: { max: 5_000, maxBytes: 2 * KB },
  AuthorizationCode: { max: 1_000, maxBytes: 2 * KB },
  RefreshToken: { max: 10_000, maxBytes: 2 * KB },
  // Access tokens are JWTs, never stored; this kind is for an opaque one (none is issued for /mcp).
  AccessToken: { max: 1_000, maxBytes: 2 * KB },
  // The JWT access tokens revoked (RFC 7009) until they expire (revocation.ts).
  RevokedAccessToken: { max: 5_000, maxBytes: 256 },
};

/** A kind of a feature that is off (device flow, CIBA, ...): it should never be stored, and little may be. */
const OTHER_KIND: KindLimits = { max: 100, maxBytes: 4 * KB };

/** A grant's refresh tokens and codes held at once (each refresh leaves the used token, to spot a replay). */
export const PER_GRANT_TOKENS = 20;

export function limitsOf(kind: string, limits: StoreLimits): KindLimits {
  return { ...(KIND_LIMITS[kind] ?? OTHER_KIND), ...limits.kinds?.[kind] };
}

/** The JSON bytes the store holds at most: every kind at its cap, every entry at its largest. */
export function storeBoundBytes(limits: StoreLimits = {}): number {
  return Object.keys(KIND_LIMITS).reduce((sum, kind) => {
    const { max, maxBytes } = limitsOf(kind, limits);
    return sum + max * maxBytes;
  }, 0);
}
