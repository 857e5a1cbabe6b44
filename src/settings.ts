import { timerMs } from "./deadline.js";
import { ConfigurationError } from "./errors.js";

/**
 * A positive whole-number setting from the environment, undefined when unset; a duration (`*_MS`) longer
 * than timers take is read as MAX_TIMER_MS.
 */
export function positiveSetting(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new ConfigurationError(`${name} must be a positive whole number, not "${raw.slice(0, 20)}".`);
  }
  return name.endsWith("_MS") ? timerMs(value) : value;
}

/** An on/off setting: 1 or true, 0 or false (or unset: off); anything else is refused, never guessed. */
export function switchSetting(env: Readonly<Record<string, string | undefined>>, name: string): boolean {
  const raw = (env[name] ?? "").trim().toLowerCase();
  if (raw === "1" || raw === "true") return true;
  if (raw === "" || raw === "0" || raw === "false") return false;
  throw new ConfigurationError(`${name} must be 1 or 0, not "${raw.slice(0, 20)}".`);
}

/**
 * How /mcp accepts OAuth access tokens (docs/remote-sign-in.md): from an external issuer
 * (MARTECH_STEPS_OAUTH_ISSUER), or from the embedded authorization server (MARTECH_STEPS_OAUTH=embedded);
 * not by default. The audience defaults to the server's own /mcp URL, known once it listens.
 */
export interface OAuthSettings {
  mode: "off" | "external" | "embedded";
  issuer?: string;
  audience?: string;
  /** The token claim that names the caller's workspace; unset = every token is the default workspace's. */
  workspaceClaim?: string;
}

/** An absolute http(s) URL setting without a fragment or query (an issuer or a resource identifier). */
function urlSetting(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const raw = (env[name] ?? "").trim();
  if (raw === "") return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.hash !== "" || url.search !== "")
    throw new ConfigurationError(
      `${name} must be an http(s) URL without a query or fragment, not "${raw.slice(0, 80)}".`,
      {
        hint: "For example https://login.example.com/ (an issuer) or https://mcp.example.com/mcp (this server's /mcp URL).",
      },
    );
  return raw;
}

export function oauthSettings(env: Readonly<Record<string, string | undefined>>): OAuthSettings {
  const mode = (env.MARTECH_STEPS_OAUTH ?? "").trim().toLowerCase();
  if (mode !== "" && mode !== "off" && mode !== "embedded")
    throw new ConfigurationError(
      `MARTECH_STEPS_OAUTH must be "embedded" or "off", not "${mode.slice(0, 20)}".`,
      {
        hint: "For an external authorization server, leave MARTECH_STEPS_OAUTH unset and set MARTECH_STEPS_OAUTH_ISSUER.",
      },
    );
  const issuer = urlSetting(env, "MARTECH_STEPS_OAUTH_ISSUER");
  if (mode === "embedded" && issuer)
    throw new ConfigurationError(
      "MARTECH_STEPS_OAUTH=embedded and MARTECH_STEPS_OAUTH_ISSUER are both set.",
      {
        hint: "Choose one authorization server: unset MARTECH_STEPS_OAUTH_ISSUER to use the embedded one, or MARTECH_STEPS_OAUTH to use the external one.",
      },
    );
  const audience = urlSetting(env, "MARTECH_STEPS_OAUTH_AUDIENCE");
  const claim = (env.MARTECH_STEPS_OAUTH_WORKSPACE_CLAIM ?? "").trim();
  return {
    mode: mode === "embedded" ? "embedded" : issuer ? "external" : "off",
    ...(issuer ? { issuer } : {}),
    ...(audience ? { audience } : {}),
    ...(claim ? { workspaceClaim: claim } : {}),
  };
}

/**
 * Whether the console's session cookie is Secure (docs/console.md): MARTECH_STEPS_COOKIE_SECURE
 * when it is set, else whether the server's public /mcp URL (MARTECH_STEPS_OAUTH_AUDIENCE) is https. Such a
 * server is reached through TLS (a proxy in front), and a cookie without Secure would also go to that name
 * over plain HTTP. `chosen`: the operator said which.
 */
export function cookieSecureSetting(env: Readonly<Record<string, string | undefined>>): {
  secure: boolean;
  chosen: boolean;
} {
  if ((env.MARTECH_STEPS_COOKIE_SECURE ?? "").trim() !== "")
    return { secure: switchSetting(env, "MARTECH_STEPS_COOKIE_SECURE"), chosen: true };
  const audience = urlSetting(env, "MARTECH_STEPS_OAUTH_AUDIENCE");
  return { secure: audience !== undefined && new URL(audience).protocol === "https:", chosen: false };
}
