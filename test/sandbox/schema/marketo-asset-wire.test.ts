/**
 * The Asset API operations added for issue 18 (tokens, email lifecycle, program writes, folders, channels,
 * tags, segmentations) answer in the shape of Adobe's Asset Swagger (with the documented wire exceptions of
 * test/helpers/wire/exceptions-asset.ts). The versioned assets (snippets, email templates, landing pages,
 * forms) are in marketo-versioned-asset-wire.test.ts. The last test checks that the list of validated
 * operations did not shrink.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formInit, type Harness, startHarness } from "../../helpers/marketo-sandbox.js";
import { expectWireShape, validated } from "../../helpers/wire/schemas.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 50, now: () => Date.parse("2025-03-03T15:00:00Z") });
});
afterAll(async () => {
  await h.close();
});

const A = "/rest/asset/v1";
const POST = { method: "POST" };

/** Calls the sandbox and validates a successful answer against the operation's response schema. */
async function asset(operation: string, path: string, init?: RequestInit) {
  const body = await h.call(path, init);
  expectWireShape("marketo-asset", operation, body);
  expect(body.errors, `${operation}: ${JSON.stringify(body.errors)}`).toEqual([]);
  return body;
}

describe("Asset answers of the added operations have the Swagger shapes", () => {
  it("My Tokens: read, create, delete", async () => {
    await asset(
      "GET /rest/asset/v1/folder/{id}/tokens.json",
      `${A}/folder/1003/tokens.json?folderType=Program`,
    );
    await asset(
      "POST /rest/asset/v1/folder/{id}/tokens.json",
      `${A}/folder/40/tokens.json`,
      formInit({ folderType: "Folder", name: "Launch", type: "date", value: "2025-04-01" }),
    );
    await asset(
      "POST /rest/asset/v1/folder/{id}/tokens/delete.json",
      `${A}/folder/40/tokens/delete.json`,
      formInit({ folderType: "Folder", name: "Launch", type: "date" }),
    );
  });

  it("email lifecycle, content, variables and sample sends", async () => {
    const folder = JSON.stringify({ id: 1001, type: "Program" });
    const created = await asset(
      "POST /rest/asset/v1/emails.json",
      `${A}/emails.json`,
      formInit({
        name: "Wire email",
        folder,
        template: "1001",
        subject: "Hi",
        fromName: "A",
        fromEmail: "a@example.com",
        replyEmail: "a@example.com",
      }),
    );
    const id = created.result?.[0]?.id as number;
    await asset(
      "POST /rest/asset/v1/email/{id}.json",
      `${A}/email/${id}.json`,
      formInit({ description: "d" }),
    );
    await asset(
      "POST /rest/asset/v1/email/{id}/content.json",
      `${A}/email/${id}/content.json`,
      formInit({ subject: JSON.stringify({ type: "Text", value: "Hello" }) }),
    );
    await asset(
      "POST /rest/asset/v1/email/{id}/content/{htmlId}.json",
      `${A}/email/${id}/content/edit_text_1.json`,
      formInit({ type: "Text", value: "<p>Body</p>" }),
    );
    await asset("GET /rest/asset/v1/email/{id}/fullContent.json", `${A}/email/${id}/fullContent.json`);
    await asset("GET /rest/asset/v1/email/{id}/variables.json", `${A}/email/${id}/variables.json`);
    await asset(
      "POST /rest/asset/v1/email/{id}/variable/{name}.json",
      `${A}/email/${id}/variable/showFooter.json`,
      formInit({ value: "false" }),
    );
    await asset(
      "POST /rest/asset/v1/email/{id}/sendSample.json",
      `${A}/email/${id}/sendSample.json`,
      formInit({ emailAddress: "qa@example.com" }),
    );
    await asset("GET /rest/asset/v1/email/ccFields.json", `${A}/email/ccFields.json`);
    await asset(
      "POST /rest/asset/v1/email/{id}/approveDraft.json",
      `${A}/email/${id}/approveDraft.json`,
      POST,
    );
    await asset("POST /rest/asset/v1/email/{id}/unapprove.json", `${A}/email/${id}/unapprove.json`, POST);
    await asset(
      "POST /rest/asset/v1/email/{id}/clone.json",
      `${A}/email/${id}/clone.json`,
      formInit({ name: "Wire email copy", folder }),
    );
    await asset(
      "POST /rest/asset/v1/email/{id}/discardDraft.json",
      `${A}/email/2004/discardDraft.json`,
      POST,
    );
    await asset("POST /rest/asset/v1/email/{id}/delete.json", `${A}/email/${id}/delete.json`, POST);
  });

  it("program writes and browse by tag", async () => {
    const folder = JSON.stringify({ id: 41, type: "Folder" });
    const created = await asset(
      "POST /rest/asset/v1/programs.json",
      `${A}/programs.json`,
      formInit({ name: "Wire program", folder, type: "Default", channel: "Content" }),
    );
    const id = created.result?.[0]?.id as number;
    await asset(
      "POST /rest/asset/v1/program/{id}.json",
      `${A}/program/${id}.json`,
      formInit({ description: "d" }),
    );
    await asset(
      "POST /rest/asset/v1/program/{id}/clone.json",
      `${A}/program/${id}/clone.json`,
      formInit({ name: "Wire program copy", folder }),
    );
    await asset("POST /rest/asset/v1/program/{id}/approve.json", `${A}/program/1001/approve.json`, POST);
    await asset("POST /rest/asset/v1/program/{id}/unapprove.json", `${A}/program/1001/unapprove.json`, POST);
    await asset("POST /rest/asset/v1/program/{id}/delete.json", `${A}/program/${id}/delete.json`, POST);
    await asset(
      "GET /rest/asset/v1/program/byTag.json",
      `${A}/program/byTag.json?tagType=Program%20Owner&tagValue=Demand%20Gen`,
    );
  });

  it("folder writes and contents", async () => {
    const created = await asset(
      "POST /rest/asset/v1/folders.json",
      `${A}/folders.json`,
      formInit({ name: "Wire folder", parent: JSON.stringify({ id: 15, type: "Folder" }) }),
    );
    const id = created.result?.[0]?.id as number;
    await asset(
      "POST /rest/asset/v1/folder/{id}.json",
      `${A}/folder/${id}.json`,
      formInit({ type: "Folder", description: "d" }),
    );
    await asset("GET /rest/asset/v1/folder/{id}/content.json", `${A}/folder/1001/content.json?type=Program`);
    await asset(
      "POST /rest/asset/v1/folder/{id}/delete.json",
      `${A}/folder/${id}/delete.json`,
      formInit({ type: "Folder" }),
    );
  });

  it("channels, tag types and segmentations", async () => {
    await asset("GET /rest/asset/v1/channels.json", `${A}/channels.json`);
    await asset("GET /rest/asset/v1/channel/byName.json", `${A}/channel/byName.json?name=Webinar`);
    await asset("GET /rest/asset/v1/tagTypes.json", `${A}/tagTypes.json`);
    await asset("GET /rest/asset/v1/tagType/byName.json", `${A}/tagType/byName.json?name=Program%20Owner`);
    await asset("GET /rest/asset/v1/segmentation.json", `${A}/segmentation.json`);
    await asset("GET /rest/asset/v1/segmentation/{id}/segments.json", `${A}/segmentation/1001/segments.json`);
  });
});

/** The operations validated above: a shrinking list fails the last test. */
const EXPECTED = [
  "GET /rest/asset/v1/channel/byName.json",
  "GET /rest/asset/v1/channels.json",
  "GET /rest/asset/v1/email/ccFields.json",
  "GET /rest/asset/v1/email/{id}/fullContent.json",
  "GET /rest/asset/v1/email/{id}/variables.json",
  "GET /rest/asset/v1/folder/{id}/content.json",
  "GET /rest/asset/v1/folder/{id}/tokens.json",
  "GET /rest/asset/v1/program/byTag.json",
  "GET /rest/asset/v1/segmentation.json",
  "GET /rest/asset/v1/segmentation/{id}/segments.json",
  "GET /rest/asset/v1/tagType/byName.json",
  "GET /rest/asset/v1/tagTypes.json",
  "POST /rest/asset/v1/email/{id}.json",
  "POST /rest/asset/v1/email/{id}/approveDraft.json",
  "POST /rest/asset/v1/email/{id}/clone.json",
  "POST /rest/asset/v1/email/{id}/content.json",
  "POST /rest/asset/v1/email/{id}/content/{htmlId}.json",
  "POST /rest/asset/v1/email/{id}/delete.json",
  "POST /rest/asset/v1/email/{id}/discardDraft.json",
  "POST /rest/asset/v1/email/{id}/sendSample.json",
  "POST /rest/asset/v1/email/{id}/unapprove.json",
  "POST /rest/asset/v1/email/{id}/variable/{name}.json",
  "POST /rest/asset/v1/emails.json",
  "POST /rest/asset/v1/folder/{id}.json",
  "POST /rest/asset/v1/folder/{id}/delete.json",
  "POST /rest/asset/v1/folder/{id}/tokens.json",
  "POST /rest/asset/v1/folder/{id}/tokens/delete.json",
  "POST /rest/asset/v1/folders.json",
  "POST /rest/asset/v1/program/{id}.json",
  "POST /rest/asset/v1/program/{id}/approve.json",
  "POST /rest/asset/v1/program/{id}/clone.json",
  "POST /rest/asset/v1/program/{id}/delete.json",
  "POST /rest/asset/v1/program/{id}/unapprove.json",
  "POST /rest/asset/v1/programs.json",
].map((op) => `marketo-asset ${op}`);

describe("coverage", () => {
  it(`validated the answers of ${EXPECTED.length} operations against their response schemas`, () => {
    expect([...validated.keys()].sort()).toEqual([...EXPECTED].sort());
  });
});
