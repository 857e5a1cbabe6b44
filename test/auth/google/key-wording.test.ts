import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  parseServiceAccountKey,
  redactKey,
  signAssertion,
} from "../../../src/auth/google/service-account.js";
import { ConfigurationError, ValidationError } from "../../../src/errors.js";
import { processRedactor, Redactor } from "../../../src/redact.js";

/**
 * Issue 26, item 6: once a service account key was registered for redaction, the product's own words
 * about it came out as "[redacted] of service account …": the key was registered whole, with its PEM lines
 * "-----BEGIN PRIVATE KEY-----", whose fragments ("private key") are in our messages. The key's secret
 * body is still cut out of everything; the words around it are not.
 */

/** A PKCS #8 key that is not RSA: jose refuses it for RS256, as a corrupted or wrong key file is. */
function ecKey() {
  const pem = generateKeyPairSync("ec", { namedCurve: "P-256" })
    .privateKey.export({ type: "pkcs8", format: "pem" })
    .toString();
  return { clientEmail: "reporter@project.iam.gserviceaccount.com", privateKeyId: "k1", privateKey: pem };
}

/** Every run of 12 characters of the key's body (what the redactor treats as the secret). */
function bodyFragments(pem: string): string[] {
  const body = pem
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("-----"))
    .join("");
  const fragments: string[] = [];
  for (let i = 0; i + 12 <= body.length; i += 6) fragments.push(body.slice(i, i + 12));
  return fragments;
}

describe("the product's words about a service account key, once the key is known to the redactor", () => {
  it("read as written, and hold no part of the key", async () => {
    const key = ecKey();
    redactKey(new Redactor(), key);
    const refused = await signAssertion(key, "https://oauth2.googleapis.com/token", [], Date.now()).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ConfigurationError);
    const message = (refused as Error).message;
    expect(message).toMatch(
      /^The private key of service account reporter@project\.iam\.gserviceaccount\.com cannot be read as an RSA key\. Create a new JSON key/,
    );
    expect(message).not.toContain("[redacted]");

    let missing: unknown;
    try {
      parseServiceAccountKey(
        { client_email: "a@b.example", private_key_id: "k2" },
        "https://x/token",
        undefined,
      );
    } catch (error) {
      missing = error;
    }
    expect(missing).toBeInstanceOf(ValidationError);
    expect((missing as Error).message).toContain("has no PKCS #8 private_key (-----BEGIN PRIVATE KEY-----).");

    for (const text of [message, (missing as Error).message])
      for (const fragment of bodyFragments(key.privateKey)) expect(text).not.toContain(fragment);
  });

  it("an echo of the key, raw or JSON-escaped, still loses its body", () => {
    const key = ecKey();
    const redactor = redactKey(new Redactor(), key);
    for (const echo of [`bad key: ${key.privateKey}`, JSON.stringify({ private_key: key.privateKey })]) {
      const shown = redactor.text(echo);
      const global = processRedactor.text(echo);
      for (const fragment of bodyFragments(key.privateKey)) {
        expect(shown).not.toContain(fragment);
        expect(global).not.toContain(fragment);
      }
    }
    expect(redactor.text(`bad key: ${key.privateKey}`)).toMatch(
      /^bad key: -----BEGIN PRIVATE KEY-----\n\[redacted\]/,
    );
  });
});
