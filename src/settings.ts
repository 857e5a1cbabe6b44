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
