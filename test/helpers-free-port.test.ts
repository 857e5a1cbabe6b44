import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { ephemeralLow, freePort } from "./helpers/free-port.js";

/**
 * A port a test polls before its server binds must lie outside the kernel's ephemeral range: there an
 * outgoing poll may be given the same number as its source port and connect to itself, taking the port
 * (CI: "Port 38617 on 127.0.0.1 is already in use" in test/cli/start-window.test.ts).
 */
describe("freePort", () => {
  it("gives ports below the ephemeral range that a server can bind", async () => {
    const low = await ephemeralLow();
    for (let i = 0; i < 40; i++) {
      const port = await freePort();
      expect(port).toBeLessThan(low);
      expect(port).toBeGreaterThanOrEqual(1024);
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, "127.0.0.1", resolve);
      });
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
