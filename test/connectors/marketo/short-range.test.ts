import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { UpstreamError } from "../../../src/errors.js";
import { connector, identity, ORIGIN, rejection } from "../../helpers/marketo-connector.js";

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const FILE = "/bulk/v1/leads/export/ce45a7a1-f19d-4ce2-882c-a3c795940a7d/file.json";
const lines = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1},lead${i + 1}@example.com`);
const CONTENT = Buffer.from(`id,email\n${lines(4_000).join("\n")}\n`, "utf8");

/**
 * Serves the export file answering each Range with 206 and at most `short(asked)` bytes of it, as a
 * broken proxy or a throttled upstream would (not at the end of the file), and counts the requests.
 */
function serveShort(short: (asked: number, call: number) => number): { ranges: string[] } {
  const ranges: string[] = [];
  nock(ORIGIN)
    .get(FILE)
    .times(10_000)
    .reply(function reply() {
      const range = String(this.req.headers.range ?? "");
      ranges.push(range);
      const [, a, b] = /^bytes=(\d+)-(\d+)$/.exec(range) ?? [];
      const start = Number(a);
      const asked = Math.min(Number(b), CONTENT.length - 1) - start + 1;
      const end = start + Math.max(0, Math.min(asked, short(asked, ranges.length))) - 1;
      return [
        206,
        CONTENT.subarray(start, end + 1),
        { "Content-Type": "text/csv", "Content-Range": `bytes ${start}-${end}/${CONTENT.length}` },
      ];
    });
  return { ranges };
}

describe("short Range answers: bounded Range requests per call, an upstream fault when no progress is made", () => {
  it("fails with a typed upstream error after a few requests when every 206 carries a sliver of what was asked", async () => {
    identity();
    const { ranges } = serveShort(() => 100);
    const error = await rejection(
      connector().readExportFile({ path: FILE }, { maxBytes: 1_000_000, chunkBytes: 8_192 }),
    );
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toMatch(/fewer bytes than asked/);
    // Without the bound the read went on in 100-byte steps: hundreds of API calls for one tool call.
    expect(ranges.length).toBeLessThanOrEqual(3);
  });

  it("fails when short answers keep coming, even above the floor, within the bytes expected", async () => {
    identity();
    const { ranges } = serveShort((asked) => Math.floor(asked / 2));
    const error = await rejection(
      connector().readExportFile({ path: FILE }, { maxBytes: 1_000_000, chunkBytes: 8_192 }),
    );
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toMatch(/fewer bytes than asked/);
    const expected = Math.ceil(CONTENT.length / 8_192);
    expect(ranges.length).toBeLessThanOrEqual(expected + 3);
  });

  it("reads the whole file when a single answer comes back short (an upstream may cut one)", async () => {
    identity();
    const { ranges } = serveShort((asked, call) => (call === 2 ? Math.floor(asked / 2) : asked));
    const read = await connector().readExportFile({ path: FILE }, { maxBytes: 1_000_000, chunkBytes: 8_192 });
    expect(read.records).toHaveLength(4_000);
    expect(read.records.at(-1)).toEqual({ id: "4000", email: "lead4000@example.com" });
    const full = Math.ceil(CONTENT.length / 8_192);
    expect(ranges.length).toBeGreaterThanOrEqual(full);
    expect(ranges.length).toBeLessThanOrEqual(full + 1);
  });
});
