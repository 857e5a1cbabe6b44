import nock from "nock";
import { describe, expect, it } from "vitest";
import { AuthenticationError, NotFoundError, PermissionError, UpstreamError } from "../../../src/errors.js";
import {
  ADMIN,
  DATA,
  offline,
  REPORT_BODY,
  REPORT_PATH,
  setup,
  status,
} from "../../helpers/google-connector.js";

offline();

describe("401", () => {
  it("invalidates the token, refreshes and replays once", async () => {
    const auths: string[] = [];
    nock(DATA)
      .post(REPORT_PATH)
      .times(2)
      .reply(function () {
        auths.push(String(this.req.headers.authorization));
        return auths.length === 1
          ? [401, status(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.")]
          : [200, { rowCount: 1 }];
      });
    const { connector, tokens } = setup();
    await expect(connector.runReport("123", REPORT_BODY)).resolves.toEqual({ rowCount: 1 });
    expect(auths).toEqual(["Bearer ya29.token-1", "Bearer ya29.token-2"]);
    expect(tokens.invalidated).toEqual(["ya29.token-1"]);
  });

  it("gives up after the replay with a reconnect message", async () => {
    const scope = nock(ADMIN)
      .get("/v1beta/accounts")
      .times(2)
      .reply(401, status(401, "UNAUTHENTICATED", "Invalid Credentials"));
    const { connector } = setup();
    const error = await connector.call({ method: "GET", path: "v1beta/accounts" }).catch((e) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toContain("martech-steps accounts connect --label main");
    scope.done();
  });
});

describe("403 says which role or setting is missing", () => {
  const denied = status(
    403,
    "PERMISSION_DENIED",
    "User does not have sufficient permissions for this property.",
  );
  it.each([
    ["data", "POST", REPORT_PATH, /Viewer role on the property/],
    ["admin", "POST", "/v1beta/properties", /Administrator role on the Google Analytics account/],
    ["admin", "POST", "/v1beta/properties/123/keyEvents", /Editor role on the property/],
    ["admin", "PATCH", "/v1beta/properties/123", /Editor role on the property/],
  ] as const)("%s %s %s", async (api, method, path, role) => {
    nock(api === "data" ? DATA : ADMIN)
      .intercept(path, method)
      .reply(403, denied);
    const { connector } = setup();
    const error = await connector.call({ method, path, body: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(PermissionError);
    expect(error.message).toMatch(role);
    expect(error.message).toContain("User does not have sufficient permissions");
  });

  it("SERVICE_DISABLED says to enable the API in the Cloud project", async () => {
    nock(DATA)
      .post(REPORT_PATH)
      .reply(
        403,
        status(
          403,
          "PERMISSION_DENIED",
          "Google Analytics Data API has not been used in project 1 before or it is disabled.",
          [
            {
              "@type": "type.googleapis.com/google.rpc.ErrorInfo",
              reason: "SERVICE_DISABLED",
              metadata: {
                activationUrl:
                  "https://console.developers.google.com/apis/api/analyticsdata.googleapis.com/overview?project=1",
              },
            },
          ],
        ),
      );
    const error = await setup()
      .connector.runReport("123", REPORT_BODY)
      .catch((e) => e);
    expect(error).toBeInstanceOf(PermissionError);
    expect(error.message).toMatch(/Google Analytics Data API is not enabled in the Google Cloud project/);
    expect(error.message).toContain(
      "https://console.developers.google.com/apis/api/analyticsdata.googleapis.com",
    );
  });

  it("ACCESS_TOKEN_SCOPE_INSUFFICIENT says to reconnect with all permissions", async () => {
    nock(ADMIN)
      .post("/v1beta/properties/123/keyEvents")
      .reply(
        403,
        status(403, "PERMISSION_DENIED", "Request had insufficient authentication scopes.", [
          { reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT" },
        ]),
      );
    const error = await setup()
      .connector.call({ method: "POST", path: "v1beta/properties/123/keyEvents", body: {} })
      .catch((e) => e);
    expect(error).toBeInstanceOf(PermissionError);
    expect(error.message).toMatch(
      /connected without the access this call needs.*accounts connect --label main/,
    );
  });
});

describe("400 / 404", () => {
  it("400 keeps Google's message; 404 is NotFoundError; neither is retried", async () => {
    nock(DATA)
      .post(REPORT_PATH)
      .reply(400, status(400, "INVALID_ARGUMENT", "Field customEvent:x is not a valid dimension."));
    nock(ADMIN)
      .get("/v1beta/properties/999")
      .reply(404, status(404, "NOT_FOUND", "Requested entity was not found."));
    const { connector, sleeps } = setup();
    const bad = await connector.runReport("123", REPORT_BODY).catch((e) => e);
    expect(bad).toBeInstanceOf(UpstreamError);
    expect(bad.serviceCode).toBe("INVALID_ARGUMENT");
    expect(bad.message).toContain("Field customEvent:x is not a valid dimension.");
    await expect(connector.call({ method: "GET", path: "v1beta/properties/999" })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(sleeps).toEqual([]);
  });
});
