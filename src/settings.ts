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
