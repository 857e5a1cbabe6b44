import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { MarketoSandboxOptions } from "../../../src/sandbox/marketo/index.js";
import {
  errorCode,
  formInit,
  type Harness,
  type Json,
  jsonInit,
  startHarness,
} from "../../helpers/marketo-sandbox.js";

const NOW = Date.parse("2025-03-03T15:00:00Z");
const JOB_MS = 120_000;
let clock = NOW;
let h: Harness | undefined;

async function start(options: MarketoSandboxOptions = {}): Promise<Harness> {
  clock = NOW;
  // Tokens outlive the clock jumps below (days), so that only the bulk queue sees time pass.
  h = await startHarness({
    leadCount: 400,
    now: () => clock,
    bulkJobMs: JOB_MS,
    tokenTtlSeconds: 30 * 86_400,
    ...options,
  });
  return h;
}
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const job = (body: Json) => body.result?.[0] as Record<string, unknown>;

async function createJob(x: Harness, body: unknown, kind = "leads"): Promise<string> {
  const created = await x.call(`/bulk/v1/${kind}/export/create.json`, jsonInit("POST", body));
  expect(created.success, JSON.stringify(created)).toBe(true);
  return job(created).exportId as string;
}

const post = { method: "POST" };
const status = async (x: Harness, id: string, kind = "leads") =>
  job(await x.call(`/bulk/v1/${kind}/export/${id}/status.json`));

async function file(x: Harness, id: string, range?: string, kind = "leads") {
  const res = await fetch(`${x.sb.url}/bulk/v1/${kind}/export/${id}/file.json`, {
    headers: { authorization: `Bearer ${x.token}`, ...(range ? { range } : {}) },
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe("bulk lead export", () => {
  it("moves Created → Queued → Processing → Completed with the sandbox clock and writes the CSV Marketo writes", async () => {
    const x = await start();
    const sync = await x.call(
      "/rest/v1/leads.json",
      jsonInit("POST", {
        action: "createOnly",
        input: [{ email: "quote@example.com", company: 'Smith, "Jones" & Co', title: null }],
      }),
    );
    const leadId = sync.result?.[0]?.id as number;
    await x.call(`/rest/v1/lists/1009/leads.json?id=${leadId}`, post);
    const id = await createJob(x, {
      fields: ["id", "email", "company", "title", "createdAt"],
      columnHeaderNames: { email: "Email Address" },
      filter: { staticListId: 1009 },
    });
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await status(x, id)).toEqual({
      exportId: id,
      format: "CSV",
      status: "Created",
      createdAt: "2025-03-03T15:00:00Z",
    });
    expect((await file(x, id)).status).toBe(404);
    const queued = job(await x.call(`/bulk/v1/leads/export/${id}/enqueue.json`, post));
    expect(queued).toMatchObject({ status: "Queued", queuedAt: "2025-03-03T15:00:00Z" });
    clock += 1_000;
    expect(await status(x, id)).toMatchObject({ status: "Processing", startedAt: "2025-03-03T15:00:00Z" });
    const pending = await file(x, id);
    expect(pending.status).toBe(404);
    expect(pending.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(pending.bytes.toString()).toContain("Processing");
    clock = NOW + JOB_MS;
    const done = await status(x, id);
    expect(done).toMatchObject({ status: "Completed", finishedAt: "2025-03-03T15:02:00Z" });

    const whole = await file(x, id);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("text/csv;charset=UTF-8");
    const lines = whole.bytes.toString().trimEnd().split("\n");
    expect(lines[0]).toBe("id,Email Address,company,title,createdAt");
    // RFC 4180: a field holding the delimiter or a quote is quoted and its quotes doubled; empty is null.
    expect(lines).toContain(`${leadId},quote@example.com,"Smith, ""Jones"" & Co",null,2025-03-03T15:00:00Z`);
    expect(lines).toHaveLength(1 + (done.numberOfRecords as number));
    expect(done.fileSize).toBe(whole.bytes.length);
    expect(done.fileChecksum).toBe(`sha256:${createHash("sha256").update(whole.bytes).digest("hex")}`);
  });

  it("serves byte ranges with 206 and Content-Range, 416 past the end, and the whole file without Range", async () => {
    const x = await start();
    const id = await createJob(x, { fields: ["id", "email", "firstName"], filter: { staticListId: 1002 } });
    await x.call(`/bulk/v1/leads/export/${id}/enqueue.json`, post);
    clock += JOB_MS;
    const whole = (await file(x, id)).bytes;
    const size = whole.length;
    const first = await file(x, id, "bytes=0-99");
    expect(first.status).toBe(206);
    expect(first.headers.get("content-range")).toBe(`bytes 0-99/${size}`);
    expect(first.headers.get("accept-ranges")).toBe("bytes");
    expect(first.headers.get("content-length")).toBe("100");
    const rest = await file(x, id, "bytes=100-");
    expect(rest.headers.get("content-range")).toBe(`bytes 100-${size - 1}/${size}`);
    expect(Buffer.concat([first.bytes, rest.bytes]).equals(whole)).toBe(true);
    const tail = await file(x, id, "bytes=-10");
    expect(tail.bytes.equals(whole.subarray(size - 10))).toBe(true);
    const past = await file(x, id, `bytes=${size}-${size + 10}`);
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${size}`);
    expect((await file(x, id, "items=0-5")).status).toBe(200);
    expect((await file(x, "00000000-0000-4000-a000-000000000000")).status).toBe(404);
  });

  it("drops the file seven days after the job completed and keeps reporting the job as Completed", async () => {
    const x = await start();
    const id = await createJob(x, { fields: ["id"], filter: { staticListId: 1002 } });
    await x.call(`/bulk/v1/leads/export/${id}/enqueue.json`, post);
    clock += JOB_MS;
    const done = await status(x, id);
    clock += 7 * 86_400_000 - 1;
    expect((await file(x, id)).status).toBe(200);
    clock += 1;
    const expired = await file(x, id);
    expect(expired.status).toBe(404);
    expect(expired.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(expired.bytes.toString()).toMatch(/expired/);
    // "Job status is available for 30 days after Completed or Failed status was reached".
    expect(await status(x, id)).toEqual(done);
  });

  it("runs 2 jobs at a time, queues at most 10, and refuses a second enqueue", async () => {
    const x = await start();
    const body = {
      fields: ["id"],
      filter: { createdAt: { startAt: "2025-02-01T00:00:00Z", endAt: "2025-03-01T00:00:00Z" } },
    };
    const ids: string[] = [];
    for (let i = 0; i < 11; i++) ids.push(await createJob(x, body));
    for (const id of ids.slice(0, 10)) {
      expect((await x.call(`/bulk/v1/leads/export/${id}/enqueue.json`, post)).success).toBe(true);
    }
    const full = await x.call(`/bulk/v1/leads/export/${ids[10]}/enqueue.json`, post);
    expect(full.errors).toEqual([{ code: "1029", message: "Too many jobs in queue" }]);
    const again = await x.call(`/bulk/v1/leads/export/${ids[0]}/enqueue.json`, post);
    expect(again.errors).toEqual([{ code: "1029", message: "Job already queued" }]);
    const states = async () => Promise.all(ids.slice(0, 4).map(async (id) => (await status(x, id)).status));
    expect(await states()).toEqual(["Processing", "Processing", "Queued", "Queued"]);
    clock += JOB_MS;
    expect(await states()).toEqual(["Completed", "Completed", "Processing", "Processing"]);
    // The third job started the moment a slot freed, not when it was next looked at.
    clock += 10 * JOB_MS;
    expect(await status(x, ids[2] as string)).toMatchObject({
      startedAt: "2025-03-03T15:02:00Z",
      finishedAt: "2025-03-03T15:04:00Z",
    });
    expect((await x.call(`/bulk/v1/leads/export/${ids[10]}/enqueue.json`, post)).success).toBe(true);
  });

  it("stops creating and enqueueing at the daily export quota until midnight Central time", async () => {
    const x = await start({ bulkDailyQuotaBytes: 500 });
    const body = { fields: ["id", "email"], filter: { staticListId: 1002 } };
    const first = await createJob(x, body);
    const second = await createJob(x, body);
    await x.call(`/bulk/v1/leads/export/${first}/enqueue.json`, post);
    clock += JOB_MS;
    expect((await status(x, first)).fileSize).toBeGreaterThan(500);
    const refused = await x.call("/bulk/v1/leads/export/create.json", jsonInit("POST", body));
    expect(refused.errors).toEqual([{ code: "1029", message: "Export daily quota exceeded" }]);
    expect(errorCode(await x.call(`/bulk/v1/leads/export/${second}/enqueue.json`, post))).toBe("1029");
    clock = Date.parse("2025-03-04T06:00:01Z"); // 00:00:01 in Chicago
    expect((await x.call(`/bulk/v1/leads/export/${second}/enqueue.json`, post)).success).toBe(true);
  });

  it("checks the request: fields, one filter, at most 31 days, known lists, format", async () => {
    const x = await start();
    const create = (body: unknown) => x.call("/bulk/v1/leads/export/create.json", jsonInit("POST", body));
    const range = (startAt: string, endAt: string) => ({ createdAt: { startAt, endAt } });
    expect(errorCode(await create({ filter: { staticListId: 1001 } }))).toBe("1002");
    expect(errorCode(await create({ fields: ["id", "nope"], filter: { staticListId: 1001 } }))).toBe("1006");
    expect(errorCode(await create({ fields: ["id"] }))).toBe("1002");
    expect(
      errorCode(
        await create({
          fields: ["id"],
          filter: { ...range("2025-01-01T00:00:00Z", "2025-02-02T00:00:00Z") },
        }),
      ),
    ).toBe("1003");
    expect(
      errorCode(await create({ fields: ["id"], filter: { staticListId: 1001, smartListId: 4001 } })),
    ).toBe("1003");
    expect(errorCode(await create({ fields: ["id"], filter: { staticListId: 999 } }))).toBe("1003");
    expect(errorCode(await create({ fields: ["id"], format: "XML", filter: { staticListId: 1001 } }))).toBe(
      "1003",
    );
    expect(
      errorCode(
        await create({ fields: ["id"], columnHeaderNames: { email: "E" }, filter: { staticListId: 1001 } }),
      ),
    ).toBe("1003");
    expect(
      (await create({ fields: ["id"], filter: range("2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z") }))
        .success,
    ).toBe(true);
  });

  // Adobe: "Max Time Span for Date Range Filter (createdAt or updatedAt): 31 days"
  // (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-extract#limits),
  // and for each filter "The range must be 31 days or fewer" (.../bulk-lead-extract#filters, .../bulk-activity-extract#filters).
  it.each([
    ["leads", "createdAt", { fields: ["id"] }],
    ["leads", "updatedAt", { fields: ["id"] }],
    ["activities", "createdAt", {}],
  ])("takes a %s %s range of 31 days and refuses one second more (1003)", async (kind, field, rest) => {
    const x = await start();
    const create = (endAt: string) =>
      x.call(
        `/bulk/v1/${kind}/export/create.json`,
        jsonInit("POST", { ...rest, filter: { [field]: { startAt: "2025-01-01T00:00:00Z", endAt } } }),
      );
    expect((await create("2025-02-01T00:00:00Z")).success).toBe(true);
    const refused = await create("2025-02-01T00:00:01Z");
    expect(refused.errors).toEqual([
      { code: "1003", message: `The ${field} date range must be 31 days or fewer` },
    ]);
  });

  it("exports the leads of a smart list, in TSV, and fails a job whose list is gone when it starts", async () => {
    const x = await start();
    const gold = await createJob(x, {
      fields: ["id", "customerTier"],
      format: "TSV",
      filter: { smartListId: 4001 },
    });
    await x.call(`/bulk/v1/leads/export/${gold}/enqueue.json`, post);
    const listed = await x.call(
      "/rest/asset/v1/staticLists.json",
      formInit({ name: "Short lived", folder: '{"id":12,"type":"Folder"}' }),
    );
    const listId = listed.result?.[0]?.id as number;
    const doomed = await createJob(x, { fields: ["id"], filter: { staticListId: listId } });
    expect((await x.call(`/rest/asset/v1/staticList/${listId}/delete.json`, post)).success).toBe(true);
    await x.call(`/bulk/v1/leads/export/${doomed}/enqueue.json`, post);
    clock += JOB_MS;
    const rows = (await file(x, gold)).bytes.toString().trimEnd().split("\n");
    expect(rows[0]).toBe("id\tcustomerTier");
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.slice(1).every((r) => r.endsWith("\tGold"))).toBe(true);
    expect(await status(x, doomed)).toMatchObject({
      status: "Failed",
      errorMsg: expect.stringContaining("not found"),
    });
  });

  it("cancels a job, lists the jobs of the past seven days filtered by status, and pages them", async () => {
    const x = await start();
    const a = await createJob(x, { fields: ["id"], filter: { staticListId: 1001 } });
    const b = await createJob(x, { fields: ["id"], filter: { staticListId: 1002 } });
    expect(job(await x.call(`/bulk/v1/leads/export/${a}/cancel.json`, post))).toMatchObject({
      status: "Cancelled",
    });
    expect(errorCode(await x.call(`/bulk/v1/leads/export/${a}/cancel.json`, post))).toBe("1003");
    expect(errorCode(await x.call(`/bulk/v1/leads/export/${a}/enqueue.json`, post))).toBe("1003");
    const cancelled = await x.call("/bulk/v1/leads/export.json?status=Canceled");
    expect(cancelled.result?.map((j) => j.exportId)).toEqual([a]);
    const page = await x.call("/bulk/v1/leads/export.json?batchSize=1");
    expect(page.result?.map((j) => j.exportId)).toEqual([a]);
    const next = await x.call(`/bulk/v1/leads/export.json?batchSize=1&nextPageToken=${page.nextPageToken}`);
    expect(next.result?.map((j) => j.exportId)).toEqual([b]);
    clock += 8 * 86_400_000;
    expect((await x.call("/bulk/v1/leads/export.json")).result).toEqual([]);
    expect(errorCode(await x.call("/bulk/v1/leads/export/nope/status.json"))).toBe("1013");
    // Lead and activity jobs are separate collections sharing one queue.
    expect(errorCode(await x.call(`/bulk/v1/activities/export/${b}/status.json`))).toBe("1013");
  });
});

describe("bulk activity export", () => {
  it("exports the activities of the date range and types, with attributes as a JSON object", async () => {
    const x = await start();
    const createdAt = { startAt: "2025-02-20T00:00:00Z", endAt: "2025-03-03T00:00:00Z" };
    const id = await createJob(x, { filter: { createdAt, activityTypeIds: [1] } }, "activities");
    await x.call(`/bulk/v1/activities/export/${id}/enqueue.json`, post);
    clock += JOB_MS;
    const text = (await file(x, id, undefined, "activities")).bytes.toString();
    const lines = text.trimEnd().split("\n");
    expect(lines[0]).toBe(
      "marketoGUID,leadId,activityDate,activityTypeId,campaignId,primaryAttributeValueId,primaryAttributeValue,attributes",
    );
    expect(lines.length).toBeGreaterThan(20);
    expect(lines[1]).toMatch(
      /^\d+,\d+,2025-0[23]-\d\dT\d\d:\d\d:\d\dZ,1,null,10\d,www\.example\.com\/[a-z/]+,"\{""Client IP Address"":/,
    );
    const create = (filter: unknown) =>
      x.call("/bulk/v1/activities/export/create.json", jsonInit("POST", { filter }));
    expect(errorCode(await create({ activityTypeIds: [1] }))).toBe("1002");
    expect(errorCode(await create({ createdAt, activityTypeIds: [37] }))).toBe("1003");
    expect(errorCode(await create({ createdAt, primaryAttributeValueIds: [101] }))).toBe("1003");
    // A misspelt filter would widen the export if it were ignored (ExportActivityFilter has four members).
    const misspelt = await create({ createdAt, activityTypeId: [1] });
    expect(misspelt.errors).toEqual([{ code: "1003", message: "Invalid filter type 'activityTypeId'" }]);
    const some = await x.call(
      "/bulk/v1/activities/export/create.json",
      jsonInit("POST", {
        fields: ["leadId", "actionResult"],
        filter: { createdAt, activityTypeIds: [1], primaryAttributeValueIds: [101] },
      }),
    );
    expect(some.success).toBe(true);
  });
});
