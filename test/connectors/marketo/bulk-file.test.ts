import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { FilePosition } from "../../../src/connectors/marketo/bulk-file.js";
import { UpstreamError } from "../../../src/errors.js";
import {
  CLIENT_SECRET,
  connector,
  fail,
  identity,
  ORIGIN,
  rejection,
} from "../../helpers/marketo-connector.js";

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const FILE = "/bulk/v1/leads/export/ce45a7a1-f19d-4ce2-882c-a3c795940a7d/file.json";

/** Serves `content` as Marketo serves an export file: 206 with Content-Range for each Range asked. */
function serveFile(content: Buffer, type = "text/csv"): { ranges: string[] } {
  const ranges: string[] = [];
  nock(ORIGIN)
    .get(FILE)
    .times(100)
    .reply(function reply() {
      const range = String(this.req.headers.range ?? "");
      ranges.push(range);
      const match = /^bytes=(\d+)-(\d+)$/.exec(range);
      if (!match) return [200, content, { "Content-Type": type }];
      const start = Number(match[1]);
      const end = Math.min(Number(match[2]), content.length - 1);
      if (start >= content.length) return [416, "", { "Content-Range": `bytes */${content.length}` }];
      return [
        206,
        content.subarray(start, end + 1),
        { "Content-Type": type, "Content-Range": `bytes ${start}-${end}/${content.length}` },
      ];
    });
  return { ranges };
}

const lines = (n: number) =>
  Array.from({ length: n }, (_, i) => `${i + 1},lead${i + 1}@example.com,"Dupont, ""Jo"" é${i}",null`);
const csv = (n: number) => Buffer.from(`id,email,lastName,company\n${lines(n).join("\n")}\n`, "utf8");

describe("bulk export file downloads (Range chunks parsed as CSV)", () => {
  it("reads the file in Range requests and returns records keyed by the header, null for Marketo's null", async () => {
    identity();
    const { ranges } = serveFile(csv(200));
    const read = await connector().readExportFile({ path: FILE }, { maxBytes: 1_000_000, chunkBytes: 1_000 });
    expect(read.columns).toEqual(["id", "email", "lastName", "company"]);
    expect(read.records).toHaveLength(200);
    expect(read.records[0]).toEqual({
      id: "1",
      email: "lead1@example.com",
      lastName: 'Dupont, "Jo" é0',
      company: null,
    });
    expect(read.records.map((r) => r.id)).toEqual(Array.from({ length: 200 }, (_, i) => String(i + 1)));
    expect(read.next).toBeUndefined();
    expect(ranges[0]).toBe("bytes=0-999");
    expect(ranges.length).toBe(Math.ceil(csv(200).length / 1_000));
    expect(read.callsUsed).toBe(ranges.length);
  });

  it("select: records not returned take no room in maxBytes, maxRecords counts every record read", async () => {
    identity();
    serveFile(csv(2_000));
    const seen: [string | null | undefined, boolean][] = [];
    const columns: string[][] = [];
    const read = await connector().readExportFile(
      { path: FILE },
      {
        maxBytes: 2_000,
        maxRecords: 1_500,
        chunkBytes: 8_000,
        map: (record) => ({ ...record, odd: String(Number(record.id) % 2) }),
        select: (record) => Number(record.id) % 100 === 0,
        onRecord: (record, returned) => seen.push([record.id, returned]),
        onColumns: (names) => columns.push([...names]),
      },
    );
    // 15 of the first 1,500 ids are multiples of 100, about 100 bytes of JSON each: all fit in 2,000 bytes.
    expect(read.records.map((r) => r.id)).toEqual(
      Array.from({ length: 15 }, (_, i) => String((i + 1) * 100)),
    );
    expect(read.records[0]?.odd).toBe("0");
    expect(read.read).toBe(1_500);
    expect(seen).toHaveLength(1_500);
    expect(seen.filter(([, returned]) => returned)).toHaveLength(15);
    expect(columns).toEqual([["id", "email", "lastName", "company"]]);
    expect(read.positions.map((p) => p.row)).toEqual(Array.from({ length: 15 }, (_, i) => (i + 1) * 100 - 1));
    expect(read.next?.row).toBe(1_500);
  });

  it("select: stops before the first returned record that would pass maxBytes, which is not seen", async () => {
    identity();
    serveFile(csv(2_000));
    const seen: string[] = [];
    const read = await connector().readExportFile(
      { path: FILE },
      {
        maxBytes: 300,
        chunkBytes: 8_000,
        select: (record) => Number(record.id) % 10 === 0,
        onRecord: (record) => seen.push(String(record.id)),
      },
    );
    const ids = read.records.map((r) => r.id);
    expect(ids.length).toBeGreaterThan(1);
    expect(read.next?.row).toBe(Number(ids.at(-1)) + 9);
    expect(seen.at(-1)).toBe(String(Number(ids.at(-1)) + 9));
  });

  it("keeps a record and a character cut by a range's edge whole", async () => {
    identity();
    const content = Buffer.from('id,note\n1,"two\nlines é"\n2,"ü, ö"\n', "utf8");
    // Every range is 5 bytes: edges fall inside quotes, after a line break inside a field, and inside é and ü.
    serveFile(content);
    const read = await connector().readExportFile({ path: FILE }, { maxBytes: 100_000, chunkBytes: 5 });
    expect(read.records).toEqual([
      { id: "1", note: "two\nlines é" },
      { id: "2", note: "ü, ö" },
    ]);
  });

  it("stops at maxBytes and resumes exactly at the next record, reading the header again", async () => {
    identity();
    const content = csv(100);
    const { ranges } = serveFile(content);
    const marketo = connector();
    const first = await marketo.readExportFile({ path: FILE }, { maxBytes: 2_000, chunkBytes: 4_096 });
    expect(first.records.length).toBeGreaterThan(5);
    expect(first.records.length).toBeLessThan(100);
    expect(first.next).toMatchObject({ row: first.records.length });
    const header = Buffer.byteLength("id,email,lastName,company\n");
    expect(first.next?.header).toBe(header);
    ranges.length = 0;
    const rest = await marketo.readExportFile(
      { path: FILE },
      { from: first.next, maxBytes: 1_000_000, chunkBytes: 4_096 },
    );
    expect(ranges[0]).toBe(`bytes=0-${header - 1}`);
    const from = first.next?.byte ?? 0;
    expect(ranges[1]).toBe(`bytes=${from}-${Math.min(from + 4_096, content.length) - 1}`);
    const ids = [...first.records, ...rest.records].map((r) => Number(r.id));
    expect(ids).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(rest.positions[0]).toEqual(first.next);
  });

  it("reads TSV by its content type", async () => {
    identity();
    serveFile(Buffer.from("id\tfirst name\n1\tAnn, B\n"), "text/tab-separated-values;charset=UTF-8");
    const read = await connector().readExportFile({ path: FILE }, { maxBytes: 10_000, chunkBytes: 1_000 });
    expect(read.records).toEqual([{ id: "1", "first name": "Ann, B" }]);
  });

  it("explains a file that is not ready yet (404 with a plain-text message)", async () => {
    identity();
    nock(ORIGIN)
      .get(FILE)
      .reply(404, "Export ce45a7a1 is Processing, not Completed", { "Content-Type": "text/plain" });
    const error = await rejection(
      connector().readExportFile({ path: FILE }, { maxBytes: 10_000, chunkBytes: 1_000 }),
    );
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toMatch(/Processing, not Completed/);
    expect(error.message).toMatch(/status\.json/);
  });

  it("replays a range refused with 602 once with a fresh token", async () => {
    identity("first:int");
    identity("second:int");
    nock(ORIGIN)
      .get(FILE)
      .reply(200, fail("602", "Access token expired"), { "Content-Type": "application/json" });
    serveFile(csv(3));
    const read = await connector().readExportFile({ path: FILE }, { maxBytes: 10_000, chunkBytes: 10_000 });
    expect(read.records).toHaveLength(3);
  });

  it("redacts a credential that a record repeats, even when a range's edge cuts it in two", async () => {
    identity();
    const content = Buffer.from(`id,note\n1,${CLIENT_SECRET}\n`);
    serveFile(content);
    const cutInside = content.indexOf(CLIENT_SECRET) + 4;
    const read = await connector().readExportFile(
      { path: FILE },
      { maxBytes: 10_000, chunkBytes: cutInside },
    );
    expect(JSON.stringify(read)).not.toContain(CLIENT_SECRET);
    expect(read.records[0]?.note).toMatch(/redacted/);
  });

  it("reads an empty file as no records", async () => {
    identity();
    serveFile(Buffer.alloc(0));
    const read = await connector().readExportFile({ path: FILE }, { maxBytes: 10_000, chunkBytes: 1_000 });
    expect(read.records).toEqual([]);
    expect(read.next).toBeUndefined();
  });
  it("answers request() on a file with its records as one page (whole when small)", async () => {
    identity();
    serveFile(csv(3));
    const page = await connector().request({ method: "GET", path: FILE });
    expect(page.result.map((r) => (r as { id: string }).id)).toEqual(["1", "2", "3"]);
    expect(page.extra).toMatchObject({ columns: ["id", "email", "lastName", "company"] });
    expect(page.extra.next).toBeUndefined();
    expect(page.warnings).toEqual([]);
  });

  it("caps request() on a large file and says where readExportFile continues, exactly", async () => {
    identity();
    const n = 3_000;
    serveFile(csv(n));
    const marketo = connector();
    const page = await marketo.request({ method: "GET", path: FILE });
    expect(page.result.length).toBeGreaterThan(100);
    expect(page.result.length).toBeLessThan(n);
    const next = page.extra.next as { byte: number; row: number; header: number };
    expect(next).toMatchObject({ row: page.result.length });
    expect(page.warnings.join(" ")).toMatch(/readExportFile/);
    expect(page.warnings.join(" ")).toContain(`row ${page.result.length + 1}`);
    const rest = await marketo.readExportFile(
      { path: FILE },
      { from: next, maxBytes: 10_000_000, chunkBytes: 1_000_000 },
    );
    const ids = [...page.result, ...rest.records].map((r) => Number((r as { id: string }).id));
    expect(ids).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  });
});

describe("a bulk export file of one column", () => {
  // An empty line there is a record whose value is empty, not a stray line break: no record is lost.
  const content = Buffer.from("email\na@example.com\n\nb@example.com\nnull\n", "utf8");

  it("keeps the record of an empty value, read from the start", async () => {
    identity();
    serveFile(content);
    const read = await connector().readExportFile({ path: FILE }, { maxBytes: 1_000_000, chunkBytes: 16 });
    expect(read.columns).toEqual(["email"]);
    expect(read.records).toEqual([
      { email: "a@example.com" },
      { email: "" },
      { email: "b@example.com" },
      { email: null },
    ]);
  });

  it("keeps it when a read resumes inside the file", async () => {
    identity();
    serveFile(content);
    const marketo = connector();
    const first = await marketo.readExportFile(
      { path: FILE },
      { maxBytes: 1_000_000, chunkBytes: 16, maxRecords: 1 },
    );
    expect(first.records).toEqual([{ email: "a@example.com" }]);
    const rest = await marketo.readExportFile(
      { path: FILE },
      { from: first.next, maxBytes: 1_000_000, chunkBytes: 16 },
    );
    expect(rest.records).toEqual([{ email: "" }, { email: "b@example.com" }, { email: null }]);
  });
});

describe("a bulk export file of one column named with its delimiter", () => {
  // columnHeaderNames may name the one column "Email Address": in an SSV file (space-separated) its
  // header is quoted. It is still one column, read from the start or resumed inside the file.
  const content = Buffer.from('"Email Address"\na@example.com\n\nb@example.com\n', "utf8");
  const records = [
    { "Email Address": "a@example.com" },
    { "Email Address": "" },
    { "Email Address": "b@example.com" },
  ];

  it("keeps the record of an empty value, read from the start", async () => {
    identity();
    serveFile(content, "text/plain");
    const read = await connector().readExportFile({ path: FILE }, { maxBytes: 1_000_000, chunkBytes: 1_000 });
    expect(read.records).toEqual(records);
  });

  it("keeps it when read one record at a time", async () => {
    identity();
    serveFile(content, "text/plain");
    const marketo = connector();
    const read: unknown[] = [];
    let from: FilePosition | undefined;
    do {
      const part = await marketo.readExportFile(
        { path: FILE },
        { ...(from ? { from } : {}), maxBytes: 1_000_000, chunkBytes: 1_000, maxRecords: 1 },
      );
      read.push(...part.records);
      from = part.next;
    } while (from);
    expect(read).toEqual(records);
  });
});

describe("a bulk export file of several columns", () => {
  it("skips a stray empty line and still refuses a record of too few fields", async () => {
    identity();
    serveFile(Buffer.from("id,email\n1,a@example.com\n\n2,b@example.com\n"));
    const read = await connector().readExportFile({ path: FILE }, { maxBytes: 1_000_000, chunkBytes: 1_000 });
    expect(read.records).toEqual([
      { id: "1", email: "a@example.com" },
      { id: "2", email: "b@example.com" },
    ]);
    nock.cleanAll();
    identity();
    serveFile(Buffer.from('id,email\n1,a@example.com\n""\n'));
    await expect(
      connector().readExportFile({ path: FILE }, { maxBytes: 1_000_000, chunkBytes: 1_000 }),
    ).rejects.toThrow(/is not valid CSV/);
  });
});
