import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { REDACTED, Redactor, WITHHELD } from "../../src/redact.js";

const ID = "3f2c9a1e-77b4-4d0e-9c1a-5b6d7e8f9a0b";
const SECRET = "Sx9/kQ+2mZ7pL4vN8rT1wY6u";
const TOKEN = "cdf01657-110d-4155-99a7-f986b2ff13a0:int";

function redactor(): Redactor {
  return new Redactor({ feeds: null }).add(ID, SECRET, TOKEN);
}

const basic = (user: string, pass: string) => Buffer.from(`${user}:${pass}`).toString("base64");

describe("Redactor", () => {
  it.each([
    ["raw", `token ${TOKEN} is invalid`],
    ["percent, upper hex", `body client_secret=${encodeURIComponent(SECRET)}&x=1`],
    ["percent, lower hex", `client_secret=${encodeURIComponent(SECRET).toLowerCase()}`],
    ["form-encoded", new URLSearchParams({ client_id: ID, client_secret: SECRET }).toString()],
    ["double percent", encodeURIComponent(encodeURIComponent(SECRET))],
    ["JSON-escaped", JSON.stringify({ s: SECRET }).replace(/\//g, "\\/")],
    ["upper case", `Bearer ${TOKEN.toUpperCase()}`],
    ["hex", Buffer.from(TOKEN).toString("hex")],
    ["base64 of id:secret", `Authorization: Basic ${basic(ID, SECRET)}`],
    ["base64 of secret at offset 1", Buffer.from(`x${SECRET}y`).toString("base64")],
    ["base64 of secret at offset 2", Buffer.from(`xy${SECRET}`).toString("base64")],
    ["base64url", Buffer.from(`{"t":"${TOKEN}"}`).toString("base64url")],
    ["truncated fragment", `token '${TOKEN.slice(0, 14)}…' rejected`],
    ["partly percent-encoded", `token ${TOKEN.replace("f986", "%66986")} rejected`],
    ["mixed escapes", `you sent ${encodeURIComponent(SECRET).replace(/%2F/g, "\\u00252F")}`],
  ])("cuts out a %s echo", (_name, text) => {
    const r = redactor();
    const out = r.text(text);
    expect(out).toContain(REDACTED);
    expect(r.leaks(out)).toBe(false);
    for (const s of [ID, SECRET, TOKEN]) expect(out).not.toContain(s);
  });

  it.each([
    ["\\u-escaped", [...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")],
    ["HTML entities", [...TOKEN].map((c) => `&#${c.charCodeAt(0)};`).join("")],
    [
      "JSON-escaped percent-encoding",
      [...SECRET].map((c) => `\\u0025${c.charCodeAt(0).toString(16).padStart(2, "0")}`).join(""),
    ],
    [
      "percent-encoded with every character escaped",
      [...TOKEN].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(""),
    ],
  ])("withholds a %s echo that cannot be cut out exactly", (_name, text) => {
    expect(redactor().text(`you sent ${text}`)).toBe(WITHHELD);
  });

  it("leaves other text alone, short values unregistered, and keeps the most recent values", () => {
    const r = new Redactor({ feeds: null, capacity: 2 }).add("short", ID);
    expect(r.text("short texts and Access token invalid")).toBe("short texts and Access token invalid");
    r.add(SECRET, TOKEN);
    expect(r.size).toBe(2);
    expect(r.text(ID)).toBe(ID);
    expect(r.text(TOKEN)).toBe(REDACTED);
  });

  it("redacts strings and keys of a JSON body, and parses a clean one unchanged", () => {
    const r = redactor();
    const clean = '{"result":[{"id":1,"email":"a@example.com"}],"success":true}';
    expect(r.json(clean)).toEqual(JSON.parse(clean));
    const echoed = JSON.stringify({
      result: [{ note: `Bearer ${TOKEN}` }],
      [SECRET]: 1,
      warnings: [`\\u${"0063"}${TOKEN.slice(1)}`],
      nested: { escaped: TOKEN.replace(/-/g, "\\u002d") },
    });
    const out = JSON.stringify(r.json(echoed));
    expect(r.leaks(out)).toBe(false);
    expect(out).toContain(`Bearer ${REDACTED}`);
  });

  it("cuts echoes in time linear in the text: a 1 MB word of them, and 1 MB of clean escaped text", () => {
    // Each hit used to grow to the whole word on its own: 64 KB of `x<token>` took minutes.
    const r = redactor();
    const word = `x${TOKEN}`.repeat(Math.ceil(1_000_000 / (TOKEN.length + 1)));
    const clean = "caf%C3%A9 \\u003d &amp; ".repeat(50_000);
    const started = performance.now();
    expect(r.text(`before ${word} after`)).toBe(`before ${REDACTED} after`);
    expect(r.text(clean)).toBe(clean);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("keeps the echoes of one word and their neighbours in one cut, and base64 padding with it", () => {
    const r = redactor();
    const padded = Buffer.from(`x${SECRET}`).toString("base64");
    expect(r.text(`a ${TOKEN}${TOKEN.slice(0, 20)}%2${TOKEN} b`)).toBe(`a ${REDACTED} b`);
    expect(r.text(`${TOKEN},${TOKEN} ok`)).toBe(`${REDACTED},${REDACTED} ok`);
    expect(r.text(`basic ${padded}&next=1`)).toBe(`basic ${REDACTED}&next=1`);
  });

  it("checks a body of any depth, and never lets a __proto__ key become the copy's prototype", () => {
    const r = redactor();
    const deep = `${"[".repeat(100_000)}"${TOKEN}"${"]".repeat(100_000)}`;
    expect(() => r.json(`{"a":${"[".repeat(100_000)}1${"]".repeat(100_000)}}`)).not.toThrow();
    expect(r.leaks(JSON.stringify(r.json(`[${deep.slice(0, 20)}"${TOKEN}"${deep.slice(-20)}]`)))).toBe(false);
    const copy = r.json(`{"__proto__":{"polluted":"yes"},"note":"Bearer ${TOKEN}"}`) as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy.polluted).toBeUndefined();
    expect(Object.keys(copy)).toEqual(["__proto__", "note"]);
    expect(copy.note).toBe(`Bearer ${REDACTED}`);
  });

  it("finds each of 128 kept values after many rotations, and none of the forgotten ones", () => {
    const r = new Redactor({ feeds: null, capacity: 128 });
    const values = Array.from({ length: 300 }, (_, i) =>
      createHash("sha256")
        .update(String(i))
        .digest("base64url")
        .slice(0, 20 + (i % 20)),
    );
    for (const value of values) {
      r.add(value);
      expect(r.text(`Bearer ${value}`)).toBe(`Bearer ${REDACTED}`);
    }
    for (const value of values.slice(-128)) expect(r.leaks(encodeURIComponent(value))).toBe(true);
    for (const value of values.slice(0, 100)) expect(r.text(value)).toBe(value);
  });

  it("feeds every value to the redactor it reports to", () => {
    const sink = new Redactor({ feeds: null });
    new Redactor({ feeds: sink }).add(TOKEN);
    expect(sink.text(TOKEN)).toBe(REDACTED);
  });
});
