/**
 * The versioned assets of the Asset API (snippets, email templates, landing pages, forms: draft and approved
 * versions, approve, unapprove, discard draft, clone, delete) answer in the shape of Adobe's Asset Swagger
 * (with the documented wire exceptions of test/helpers/wire/exceptions-asset.ts). The other added asset
 * operations are in marketo-asset-wire.test.ts. The last test checks that the list of validated operations
 * did not shrink.
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

/** A multipart/form-data body with the template HTML as the `content` file part. */
function templateForm(fields: Record<string, string>): RequestInit {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set("content", new Blob(["<html><body>Hi</body></html>"], { type: "text/html" }), "template.html");
  return { method: "POST", body: form };
}

/** Calls the sandbox and validates a successful answer against the operation's response schema. */
async function asset(operation: string, path: string, init?: RequestInit) {
  const body = await h.call(path, init);
  expectWireShape("marketo-asset", operation, body);
  expect(body.errors, `${operation}: ${JSON.stringify(body.errors)}`).toEqual([]);
  return body;
}

describe("Versioned asset answers have the Swagger shapes", () => {
  it("snippets", async () => {
    await asset("GET /rest/asset/v1/snippets.json", `${A}/snippets.json`);
    await asset("GET /rest/asset/v1/snippet/{id}.json", `${A}/snippet/3001.json`);
    await asset("GET /rest/asset/v1/snippet/{id}/content.json", `${A}/snippet/3001/content.json`);
    const folder = JSON.stringify({ id: 17, type: "Folder" });
    const created = await asset(
      "POST /rest/asset/v1/snippets.json",
      `${A}/snippets.json`,
      formInit({ name: "Wire snippet", folder }),
    );
    const id = created.result?.[0]?.id as number;
    await asset(
      "POST /rest/asset/v1/snippet/{id}.json",
      `${A}/snippet/${id}.json`,
      formInit({ description: "d" }),
    );
    await asset(
      "POST /rest/asset/v1/snippet/{id}/content.json",
      `${A}/snippet/${id}/content.json`,
      formInit({ type: "HTML", content: "<b>hi</b>" }),
    );
    await asset(
      "POST /rest/asset/v1/snippet/{id}/approveDraft.json",
      `${A}/snippet/${id}/approveDraft.json`,
      POST,
    );
    await asset("POST /rest/asset/v1/snippet/{id}/unapprove.json", `${A}/snippet/${id}/unapprove.json`, POST);
    await asset(
      "POST /rest/asset/v1/snippet/{id}/discardDraft.json",
      `${A}/snippet/3002/discardDraft.json`,
      POST,
    );
    await asset(
      "POST /rest/asset/v1/snippet/{id}/clone.json",
      `${A}/snippet/3001/clone.json`,
      formInit({ name: "Wire clone", folder }),
    );
    await asset("POST /rest/asset/v1/snippet/{id}/delete.json", `${A}/snippet/${id}/delete.json`, POST);
  });

  it("email templates", async () => {
    await asset("GET /rest/asset/v1/emailTemplates.json", `${A}/emailTemplates.json`);
    await asset("GET /rest/asset/v1/emailTemplate/{id}.json", `${A}/emailTemplate/1001.json`);
    await asset(
      "GET /rest/asset/v1/emailTemplate/byName.json",
      `${A}/emailTemplate/byName.json?name=Event%20Invitation`,
    );
    await asset(
      "GET /rest/asset/v1/emailTemplate/{id}/content",
      `${A}/emailTemplate/1003/content?status=draft`,
    );
    await asset("GET /rest/asset/v1/emailTemplates/{id}/usedBy.json", `${A}/emailTemplates/1001/usedBy.json`);
    const folder = JSON.stringify({ id: 18, type: "Folder" });
    const created = await asset(
      "POST /rest/asset/v1/emailTemplates.json",
      `${A}/emailTemplates.json`,
      templateForm({ name: "Wire template", folder }),
    );
    const id = created.result?.[0]?.id as number;
    await asset(
      "POST /rest/asset/v1/emailTemplate/{id}.json",
      `${A}/emailTemplate/${id}.json`,
      formInit({ description: "d" }),
    );
    await asset(
      "POST /rest/asset/v1/emailTemplate/{id}/content.json",
      `${A}/emailTemplate/${id}/content.json`,
      templateForm({}),
    );
    await asset(
      "POST /rest/asset/v1/emailTemplate/{id}/approveDraft.json",
      `${A}/emailTemplate/${id}/approveDraft.json`,
      POST,
    );
    await asset(
      "POST /rest/asset/v1/emailTemplate/{id}/unapprove.json",
      `${A}/emailTemplate/${id}/unapprove.json`,
      POST,
    );
    await asset(
      "POST /rest/asset/v1/emailTemplate/{id}/discardDraft.json",
      `${A}/emailTemplate/1003/discardDraft.json`,
      POST,
    );
    await asset(
      "POST /rest/asset/v1/emailTemplate/{id}/clone.json",
      `${A}/emailTemplate/1001/clone.json`,
      formInit({ name: "Wire template copy", folder }),
    );
    await asset(
      "POST /rest/asset/v1/emailTemplate/{id}/delete.json",
      `${A}/emailTemplate/${id}/delete.json`,
      POST,
    );
  });

  it("landing pages", async () => {
    await asset("GET /rest/asset/v1/landingPages.json", `${A}/landingPages.json`);
    await asset("GET /rest/asset/v1/landingPage/{id}.json", `${A}/landingPage/1001.json`);
    await asset(
      "GET /rest/asset/v1/landingPage/byName.json",
      `${A}/landingPage/byName.json?name=Event%20Agenda`,
    );
    await asset("GET /rest/asset/v1/landingPage/{id}/content.json", `${A}/landingPage/1001/content.json`);
    const folder = JSON.stringify({ id: 19, type: "Folder" });
    const created = await asset(
      "POST /rest/asset/v1/landingPages.json",
      `${A}/landingPages.json`,
      formInit({ name: "Wire page", folder, template: "1", title: "T" }),
    );
    const id = created.result?.[0]?.id as number;
    await asset(
      "POST /rest/asset/v1/landingPage/{id}.json",
      `${A}/landingPage/${id}.json`,
      formInit({ title: "T2" }),
    );
    await asset(
      "POST /rest/asset/v1/landingPage/{id}/approveDraft.json",
      `${A}/landingPage/${id}/approveDraft.json`,
      POST,
    );
    await asset(
      "POST /rest/asset/v1/landingPage/{id}/unapprove.json",
      `${A}/landingPage/${id}/unapprove.json`,
      POST,
    );
    await asset(
      "POST /rest/asset/v1/landingPage/{id}/discardDraft.json",
      `${A}/landingPage/1002/discardDraft.json`,
      POST,
    );
    await asset(
      "POST /rest/asset/v1/landingPage/{id}/clone.json",
      `${A}/landingPage/1001/clone.json`,
      formInit({ name: "Wire page copy", folder }),
    );
    await asset(
      "POST /rest/asset/v1/landingPage/{id}/delete.json",
      `${A}/landingPage/${id}/delete.json`,
      POST,
    );
  });

  it("forms", async () => {
    await asset("GET /rest/asset/v1/forms.json", `${A}/forms.json`);
    await asset("GET /rest/asset/v1/form/{id}.json", `${A}/form/1001.json`);
    await asset("GET /rest/asset/v1/form/byName.json", `${A}/form/byName.json?name=Contact%20Us`);
    await asset("GET /rest/asset/v1/form/{id}/fields.json", `${A}/form/1002/fields.json?status=draft`);
    await asset("GET /rest/asset/v1/form/fields.json", `${A}/form/fields.json`);
    const folder = JSON.stringify({ id: 1003, type: "Program" });
    const created = await asset(
      "POST /rest/asset/v1/forms.json",
      `${A}/forms.json`,
      formInit({ name: "Wire form", folder }),
    );
    const id = created.result?.[0]?.id as number;
    await asset("POST /rest/asset/v1/form/{id}.json", `${A}/form/${id}.json`, formInit({ description: "d" }));
    await asset("POST /rest/asset/v1/form/{id}/approveDraft.json", `${A}/form/${id}/approveDraft.json`, POST);
    await asset("POST /rest/asset/v1/form/{id}/discardDraft.json", `${A}/form/1002/discardDraft.json`, POST);
    await asset(
      "POST /rest/asset/v1/form/{id}/clone.json",
      `${A}/form/1001/clone.json`,
      formInit({ name: "Wire form copy", folder }),
    );
    await asset("POST /rest/asset/v1/form/{id}/delete.json", `${A}/form/${id}/delete.json`, POST);
  });
});

/** The operations validated above: a shrinking list fails the last test. */
const EXPECTED = [
  "GET /rest/asset/v1/emailTemplate/byName.json",
  "GET /rest/asset/v1/emailTemplate/{id}.json",
  "GET /rest/asset/v1/emailTemplate/{id}/content",
  "GET /rest/asset/v1/emailTemplates.json",
  "GET /rest/asset/v1/emailTemplates/{id}/usedBy.json",
  "GET /rest/asset/v1/form/byName.json",
  "GET /rest/asset/v1/form/fields.json",
  "GET /rest/asset/v1/form/{id}.json",
  "GET /rest/asset/v1/form/{id}/fields.json",
  "GET /rest/asset/v1/forms.json",
  "GET /rest/asset/v1/landingPage/byName.json",
  "GET /rest/asset/v1/landingPage/{id}.json",
  "GET /rest/asset/v1/landingPage/{id}/content.json",
  "GET /rest/asset/v1/landingPages.json",
  "GET /rest/asset/v1/snippet/{id}.json",
  "GET /rest/asset/v1/snippet/{id}/content.json",
  "GET /rest/asset/v1/snippets.json",
  "POST /rest/asset/v1/emailTemplate/{id}.json",
  "POST /rest/asset/v1/emailTemplate/{id}/approveDraft.json",
  "POST /rest/asset/v1/emailTemplate/{id}/clone.json",
  "POST /rest/asset/v1/emailTemplate/{id}/content.json",
  "POST /rest/asset/v1/emailTemplate/{id}/delete.json",
  "POST /rest/asset/v1/emailTemplate/{id}/discardDraft.json",
  "POST /rest/asset/v1/emailTemplate/{id}/unapprove.json",
  "POST /rest/asset/v1/emailTemplates.json",
  "POST /rest/asset/v1/form/{id}.json",
  "POST /rest/asset/v1/form/{id}/approveDraft.json",
  "POST /rest/asset/v1/form/{id}/clone.json",
  "POST /rest/asset/v1/form/{id}/delete.json",
  "POST /rest/asset/v1/form/{id}/discardDraft.json",
  "POST /rest/asset/v1/forms.json",
  "POST /rest/asset/v1/landingPage/{id}.json",
  "POST /rest/asset/v1/landingPage/{id}/approveDraft.json",
  "POST /rest/asset/v1/landingPage/{id}/clone.json",
  "POST /rest/asset/v1/landingPage/{id}/delete.json",
  "POST /rest/asset/v1/landingPage/{id}/discardDraft.json",
  "POST /rest/asset/v1/landingPage/{id}/unapprove.json",
  "POST /rest/asset/v1/landingPages.json",
  "POST /rest/asset/v1/snippet/{id}.json",
  "POST /rest/asset/v1/snippet/{id}/approveDraft.json",
  "POST /rest/asset/v1/snippet/{id}/clone.json",
  "POST /rest/asset/v1/snippet/{id}/content.json",
  "POST /rest/asset/v1/snippet/{id}/delete.json",
  "POST /rest/asset/v1/snippet/{id}/discardDraft.json",
  "POST /rest/asset/v1/snippet/{id}/unapprove.json",
  "POST /rest/asset/v1/snippets.json",
].map((op) => `marketo-asset ${op}`);

describe("coverage", () => {
  it(`validated the answers of ${EXPECTED.length} operations against their response schemas`, () => {
    expect([...validated.keys()].sort()).toEqual([...EXPECTED].sort());
  });
});
