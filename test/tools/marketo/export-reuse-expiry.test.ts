import { afterEach, describe, expect, it, vi } from "vitest";
import { KEEP_MAX_BYTES, keepExport, keptExport, REUSE_MS } from "../../../src/tools/marketo/export-reuse.js";

const run = (finishedAt: number) => ({
  columns: ["id", "email"],
  visible: ["id", "email"],
  rows: [{ id: 1, email: "a@example.com" }],
  finishedAt,
  jobs: 1,
  calls: 3,
});

describe("a kept export", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is let go once it may no longer answer, without waiting for a lookup", () => {
    vi.useFakeTimers();
    const owner = {};
    const finishedAt = Date.now();
    keepExport(owner, "leads", run(finishedAt), KEEP_MAX_BYTES);
    // Asked as of the moment it finished, it answers while kept...
    vi.advanceTimersByTime(REUSE_MS - 1);
    expect(keptExport(owner, "leads", ["email"], finishedAt)?.rows).toHaveLength(1);
    // ...and is gone once its time is up, even asked as of that same moment.
    vi.advanceTimersByTime(1);
    expect(keptExport(owner, "leads", ["email"], finishedAt)).toBeUndefined();
  });

  it("kept again, is not dropped by the earlier run's timer", () => {
    vi.useFakeTimers();
    const owner = {};
    const first = Date.now();
    keepExport(owner, "leads", run(first), KEEP_MAX_BYTES);
    vi.advanceTimersByTime(REUSE_MS / 2);
    keepExport(owner, "leads", run(first + REUSE_MS / 2), KEEP_MAX_BYTES);
    vi.advanceTimersByTime(REUSE_MS / 2);
    expect(keptExport(owner, "leads", undefined, first + REUSE_MS / 2)?.finishedAt).toBe(
      first + REUSE_MS / 2,
    );
  });
});
