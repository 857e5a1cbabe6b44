import { describe, expect, it } from "vitest";
import { createState, MemoryState, RedisState } from "../../src/state/index.js";

describe("createState", () => {
  it("uses memory without REDIS_URL", async () => {
    const state = createState({});
    expect(state).toBeInstanceOf(MemoryState);
    await state.close();
  });

  it("uses Redis when REDIS_URL is set", async () => {
    const state = createState({ REDIS_URL: process.env.REDIS_URL || "redis://127.0.0.1:1" });
    expect(state).toBeInstanceOf(RedisState);
    await state.close();
  });

  it("ignores a blank REDIS_URL", () => {
    expect(createState({ REDIS_URL: "  " })).toBeInstanceOf(MemoryState);
  });
});
