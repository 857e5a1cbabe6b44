import { describe, expect, it } from "vitest";
import { emailOf, scopesOf } from "../../../src/auth/google/token-claims.js";
import { Redactor } from "../../../src/redact.js";
import { idToken } from "../../helpers/google-auth.js";

const REFRESH = "1//0gCanaryRefreshToken0123456789";
const SECRET = "GOCSPX-canary-client-secret-42";
const redactor = () => new Redactor({ feeds: null }).add(REFRESH, SECRET);

describe("what a token response says about the account", () => {
  it("keeps Google's scopes, drops anything else and anything that echoes a credential", () => {
    const scope = [
      "https://www.googleapis.com/auth/analytics.readonly",
      "openid",
      "https://www.googleapis.com/auth/userinfo.email",
      SECRET,
      `https://www.googleapis.com/auth/${SECRET}`,
      "<script>",
      "javascript:alert(1)",
      "",
    ].join(" ");
    expect(scopesOf(scope, redactor())).toEqual([
      "https://www.googleapis.com/auth/analytics.readonly",
      "openid",
      "https://www.googleapis.com/auth/userinfo.email",
    ]);
    expect(scopesOf(undefined, redactor())).toBeUndefined();
  });

  it("keeps an email claim that is an email and echoes no credential", () => {
    expect(emailOf(idToken("ana@example.com"), redactor())).toBe("ana@example.com");
    expect(emailOf(idToken("analyst@sandbox.example"), redactor())).toBe("analyst@sandbox.example");
    for (const email of [
      `${REFRESH}@example.com`,
      `ana@${encodeURIComponent(SECRET).toLowerCase()}.example.com`,
      "not an email",
      "ana@example",
      `ana@example.com\n${"x".repeat(10)}`,
      `${"a".repeat(250)}@example.com`,
    ]) {
      expect(emailOf(idToken(email), redactor()), email).toBeUndefined();
    }
    expect(emailOf("header.not-base64-json.sig", redactor())).toBeUndefined();
    expect(emailOf(undefined, redactor())).toBeUndefined();
  });
});
