import { describe, expect, it } from "vitest";
import { itemBytes } from "../../../src/json-size.js";
import { Retained } from "../../../src/tools/records/retained.js";

/**
 * keep_counted's records are held up to a kept result's bytes, measured as the store measures them: UTF-8 bytes as
 * JSON (review s53, 9: measured in characters, records of non-ASCII text passed the count and then failed to keep).
 */
describe("the records counted, held up to a size", () => {
  it("measures UTF-8 bytes: a record within the size in characters but past it in bytes is not held", () => {
    const record = { name: "é".repeat(60) };
    const chars = JSON.stringify(record).length + 1;
    const bytes = itemBytes(record);
    expect(bytes).toBeGreaterThan(chars);
    const held = new Retained(chars);
    held.add(record);
    expect(held.rows).toBeUndefined();
    const fits = new Retained(bytes);
    fits.add(record);
    expect(fits.rows).toEqual([record]);
  });

  it("holds none once past the size (a part would pass for the whole)", () => {
    const held = new Retained(itemBytes({ id: 1 }) * 2);
    for (const id of [1, 2, 3]) held.add({ id });
    expect(held.rows).toBeUndefined();
  });
});
