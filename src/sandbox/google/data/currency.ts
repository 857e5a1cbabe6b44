/**
 * Revenue is generated in US dollars and shown in the report currency: the request's currencyCode,
 * else the property's (RunReportRequest.currencyCode: "If the field is empty, the report uses the
 * property's default currency"). Fixed rates keep the emulator deterministic.
 */
import { invalidArgument } from "./rpc.js";

const USD_RATES: Record<string, number> = {
  USD: 1,
  EUR: 0.92,
  GBP: 0.79,
  JPY: 151,
  CAD: 1.36,
  AUD: 1.52,
  CHF: 0.9,
  INR: 83,
  BRL: 5,
  SEK: 10.5,
  NOK: 10.6,
  DKK: 6.9,
  PLN: 4,
  MXN: 17,
  CNY: 7.2,
};

export const SUPPORTED_CURRENCIES: readonly string[] = Object.keys(USD_RATES);

/** The report currency and its rate from US dollars. */
export function reportCurrency(requested: unknown, propertyCurrency: string): { code: string; fx: number } {
  if (requested === undefined || requested === null || requested === "") {
    // A property currency outside the table is still shown as its own code (values in dollars).
    return { code: propertyCurrency, fx: USD_RATES[propertyCurrency] ?? 1 };
  }
  const code = typeof requested === "string" ? requested : "";
  const fx = USD_RATES[code];
  if (fx === undefined) {
    throw invalidArgument(
      `currencyCode '${String(requested)}' is not supported. Use an ISO 4217 code among ${SUPPORTED_CURRENCIES.join(", ")}.`,
    );
  }
  return { code, fx };
}
