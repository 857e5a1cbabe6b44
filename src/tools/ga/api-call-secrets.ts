/**
 * Secrets Google hands back in an Admin API answer stay out of the tool's result: a measurement protocol
 * secret's secretValue ("Pass this value to the api_secret field of the Measurement Protocol API":
 * MeasurementProtocolSecret in analyticsadmin.v1beta's discovery document) lets anyone send hits into the
 * property. A result reaches the model's context, its logs and kept results, where no secret may appear
 * (DESIGN.md's security rules); a trial's call log kept one (trial s17, N168). The person who needs it reads
 * it in Google Analytics.
 */
const SECRET_FIELDS = new Set(["secretValue"]);

export const WITHHELD_SECRET =
  "[withheld: a secret; read it in Google Analytics: Admin, Data streams, the stream, Measurement Protocol API secrets]";

/** The body with every secret field's value replaced, and how many were. */
export function withoutSecrets(body: unknown): { body: unknown; withheld: number } {
  let withheld = 0;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        if (SECRET_FIELDS.has(key) && typeof item === "string" && item !== "") {
          withheld += 1;
          return [key, WITHHELD_SECRET];
        }
        return [key, walk(item)];
      }),
    );
  };
  const out = walk(body);
  return { body: out, withheld };
}

/** The answer's note when secrets were withheld. */
export const withheldWords = (withheld: number): string =>
  `${withheld === 1 ? "A secret value was" : `${withheld} secret values were`} withheld from this answer (secretValue): ` +
  "the secret exists in Google Analytics, where a person with access reads it (Admin, Data streams, the stream, " +
  "Measurement Protocol API secrets).";
