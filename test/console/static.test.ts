import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConsole } from "../../src/console/index.js";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import { Workspace } from "../../src/workspace.js";
import { rawRequest } from "../helpers/console.js";
import { tempDir } from "../helpers/temp.js";

async function serve(webRoot: string): Promise<{ http: HttpServerHandle; base: string }> {
  const workspace = () => new Workspace({ env: {} });
  const web = createConsole({ workspace, loopback: true, webRoot, env: {} });
  const http = await startHttpServer({ workspace, routes: web.routes });
  return { http, base: new URL(http.url).origin };
}

describe("the console's files", () => {
  let built: { http: HttpServerHandle; base: string };
  let missing: { http: HttpServerHandle; base: string };

  beforeAll(async () => {
    const root = await tempDir("console-web-");
    await mkdir(join(root, "assets"));
    await writeFile(join(root, "index.html"), "<!doctype html><title>t</title>");
    await writeFile(join(root, "assets", "index-abc.js"), "export {};");
    await writeFile(join(root, "secret.txt"), "not an asset");
    built = await serve(root);
    missing = await serve(join(root, "nowhere"));
  });
  afterAll(async () => {
    await built.http.close();
    await missing.http.close();
  });

  it("serves only the built assets, by exact name, with long caching", async () => {
    const asset = await rawRequest(built.base, "GET", "/console/assets/index-abc.js");
    expect(asset.status).toBe(200);
    expect(asset.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(asset.headers["cache-control"]).toContain("immutable");
    for (const path of [
      "/console/assets/../secret.txt",
      "/console/assets/%2e%2e/secret.txt",
      "/console/assets/..%2fsecret.txt",
      "/console/assets/nope.js",
      "/secret.txt",
    ]) {
      const answer = await rawRequest(built.base, "GET", path);
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      expect(answer.text).not.toContain("not an asset");
    }
  });

  it("says how to build the page when it was not built", async () => {
    const answer = await rawRequest(missing.base, "GET", "/");
    expect(answer.status).toBe(503);
    expect(answer.text).toContain("Run `npm run build`");
  });
});
