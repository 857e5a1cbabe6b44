import { describe, expect, it } from "vitest";
import { startLoopback } from "../../../src/auth/google/loopback.js";
import { CancelledError } from "../../../src/errors.js";

// node:http loads when a sign-in starts (stdio serve starts without it). A cancel that arrives while it
// loads must still cancel the sign-in, not leave the receiver waiting for its whole timeout.
describe("the loopback receiver of a Google sign-in", () => {
  it("is cancelled by an abort that arrives just after it was started", { timeout: 10_000 }, async () => {
    const controller = new AbortController();
    const starting = startLoopback({ state: "s", timeoutMs: 60_000, signal: controller.signal, port: 0 });
    controller.abort();
    const receiver = await starting.catch((error: unknown) =>
      error instanceof Error ? error : new Error(String(error)),
    );
    if (receiver instanceof Error) {
      expect(receiver).toBeInstanceOf(CancelledError);
      return;
    }
    try {
      const outcome = await Promise.race([
        receiver.code.then(
          () => "a code",
          (error: unknown) => error,
        ),
        new Promise((resolve) => setTimeout(() => resolve("still waiting after 2 s"), 2_000)),
      ]);
      expect(outcome).toBeInstanceOf(CancelledError);
    } finally {
      await receiver.close();
    }
  });
});
