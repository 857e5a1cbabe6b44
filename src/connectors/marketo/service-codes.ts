import { type MartechError, PermissionError, UpstreamError } from "../../errors.js";
import { MARKETO_REAL_PATHS } from "./real-paths.js";
import { ENDPOINT_RULES } from "./url.js";

/**
 * What to do with a Marketo error code
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/error-codes).
 * - reauth: 601/602, the token was rejected: invalidate it and replay once (not executed, safe for POST);
 * - rate_window / concurrency: 606/615, refused before execution: wait and replay (safe for POST);
 * - transient: 604/608/611/614/713/719: retried with backoff, but only for reads, because only
 *   601/602/606/615 are certain not to have run;
 * - quota: 607, the daily quota is spent until midnight Chicago time: never retried;
 * - fatal: everything else, returned as a typed error that says what to do next.
 */
export type CodeVerdict =
  | { kind: "reauth" | "rate_window" | "concurrency" | "transient" | "quota"; code: string }
  | { kind: "fatal"; error: MartechError };

const TRANSIENT = new Set(["604", "608", "611", "614", "713", "719"]);

export const MAPI_REFERENCE = "https://developer.adobe.com/marketo-apis/api/mapi/";
const ERROR_CODES_DOC =
  "https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/error-codes";

const NEXT_STEP: Record<string, string> = {
  "605": `Use the HTTP method that the Marketo REST reference gives for this path: ${MAPI_REFERENCE}`,
  "609": "Send a body that is valid JSON in the shape the endpoint documents.",
  "612": "Lead DB POSTs take a JSON object body; Asset API POSTs take a flat object of form fields.",
  "613": "Send the file as multipart/form-data as the endpoint documents.",
  "616": "Custom objects need a Marketo subscription that includes them; ask the Marketo admin.",
  "701": "Give the parameter the message names a value; it cannot be blank.",
  "702": "Nothing matched: check the ids or filter values.",
  "703": "The feature is not enabled on this Marketo subscription; ask the Marketo admin to enable it.",
  "704": "Send dates as ISO 8601, e.g. 2024-01-31T00:00:00Z.",
  "709":
    "The asset is not in a state that allows this (e.g. no draft to approve); check it in Marketo first.",
  "710": "The parent folder does not exist; check the folder id and type.",
  "711": "The folder is of the wrong type for this asset; pick a folder of the right type.",
  "1003": `Correct the value the message names, as the endpoint's parameters are documented: ${MAPI_REFERENCE}`,
  "1004": "The lead does not exist; check the lead id or look the lead up by email first.",
  "1006":
    "The field does not exist; list fields with GET /rest/v1/leads/describe.json and use their REST API names.",
  "1013": "The object does not exist; check its id.",
  "1029":
    "Too many bulk export jobs are queued or the 500 MB daily export quota is spent; wait for running jobs or until midnight Central time.",
};

/**
 * 701 "filterType cannot be blank" from Get Leads by Filter Type: that endpoint only looks leads up by
 * a field's values; listing leads without one is another endpoint (a static list's members, a
 * program's members) or the bulk lead export
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads#query).
 */
export const FILTER_TYPE_HINT =
  "GET /rest/v1/leads.json looks leads up by a field's values: give filterType and filterValues (e.g. " +
  'query_parameters {"filterType":"email","filterValues":"a@example.com"} or {"filterType":"id","filterValues":"1,2,3"}). ' +
  "To list leads without a filter value, read a static list's members (GET /rest/v1/lists/{listId}/leads.json) or " +
  "a program's members (GET /rest/v1/leads/programs/{programId}.json), with paginate true.";

/**
 * 701 "filterType cannot be blank" from Get Program Members: it looks members up by a searchable field of
 * Describe Program Member; a program's every member is Get Leads by Program's
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/program-members#query).
 * It was answered with the hint of leads.json (seen while probing for trial s16).
 */
export const MEMBERS_FILTER_TYPE_HINT =
  "GET /rest/v1/programs/{programId}/members.json looks members up by a field's values: give filterType and " +
  "filterValues, filterType one of GET /rest/v1/programs/members/describe.json's searchableFields. To read every " +
  "member with its member fields (statusName, custom fields), filter on one every member has, with paginate true: " +
  '{"filterType":"reachedSuccess","filterValues":"true,false","fields":"leadId,statusName"}. A lead\'s own fields ' +
  "come with its membership from GET /rest/v1/leads/programs/{programId}.json.";

/** 701 "filterType cannot be blank" elsewhere (custom objects, opportunities, companies): their describe says. */
const OTHER_FILTER_TYPE_HINT =
  "This endpoint looks records up by a field's values: give filterType and filterValues, filterType one of the " +
  "searchableFields its describe call lists (for a custom object, GET /rest/v1/customobjects/{apiName}/describe.json).";

function filterTypeHint(path: string): string {
  const bare = path.split("?")[0] ?? "";
  if (bare === "/rest/v1/leads.json") return FILTER_TYPE_HINT;
  if (/^\/rest\/v1\/programs\/\d+\/members\.json$/.test(bare)) return MEMBERS_FILTER_TYPE_HINT;
  return OTHER_FILTER_TYPE_HINT;
}

/**
 * Leads are looked up only by searchable fields (Describe Lead2's searchableFields,
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads#describe);
 * any other field means reading leads in bulk (Bulk Lead Extract, a createdAt or updatedAt range of at
 * most 31 days per job: https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-lead-extract).
 */
export const LEAD_FILTER_TYPE_HINT =
  "filterType must be a searchable lead field: GET /rest/v1/leads/describe2.json lists them (result[0].searchableFields; " +
  "id and email always are). To find leads by another field (a company, an email domain), export them: POST " +
  '/bulk/v1/leads/export/create.json with body {"fields":[…],"format":"CSV","filter":{"createdAt":{"startAt":…,"endAt":…}}} ' +
  "and run_to_completion true (a span over 31 days runs as one job per 31 days, joined into one file), with where " +
  '(e.g. lastName = "Keller") to keep only the leads you want. Ask for every field your next questions need: for 15 ' +
  "minutes, the same export with the same or fewer fields is answered from its rows, with no new export and no API call.";

/** 1003 says many things (ADE error-codes.md: "Invalid value"): the next step follows from the message. */
function invalidValueHint(message: string, path: string): string | undefined {
  if (/invalid filterType/i.test(message)) {
    return path.split("?")[0] === "/rest/v1/leads.json"
      ? LEAD_FILTER_TYPE_HINT
      : `Use a filterType this endpoint documents (${MAPI_REFERENCE}).`;
  }
  const span = /the (\w+) date range must be (.+?) or fewer/i.exec(message);
  if (span) {
    return (
      `Split the ${span[1]} range into windows of at most ${span[2]}: one request (export job) per window, ` +
      "each window's startAt right after the previous one's endAt (with dates, an end date counts its whole day: the " +
      "next window starts the day after), then join what they return; or, for a bulk " +
      "export, send the whole range with run_to_completion true, which runs those jobs and joins their files."
    );
  }
  if (/maximum is \d+/i.test(message)) {
    return "Send at most the maximum the message gives, and the rest in further calls of the same kind.";
  }
  if (/activityTypeId/i.test(message)) {
    return "Use activity type ids that GET /rest/v1/activities/types.json lists (at most 10 per call).";
  }
  return undefined;
}

/**
 * 701 "folder cannot be blank" from the Asset API's creates: the parent folder is a JSON object with its id
 * and type, Folder or Program (Adobe's Asset API Swagger, definition "Folder": required id and type, type
 * enum [Folder, Program]; /work/shared/spec/real-api/marketo/swagger-asset.json), and a folder's id comes
 * from Get Folder by Name (GET /rest/asset/v1/folder/byName.json,
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/folders#by-name).
 */
export const FOLDER_HINT =
  'Give folder as JSON with the parent folder\'s id and type (Folder, or Program for a program), e.g. {"id":12,"type":"Folder"}. ' +
  "To find a folder's id by its name: GET /rest/asset/v1/folder/byName.json with query_parameters " +
  '{"name":"Global Lists"} (result[0].id; its type is result[0].folderId.type).';

/**
 * 701 "activityTypeIds cannot be blank" from Get Lead Activities: it takes 1 to 10 activity type ids per call
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/activities); "Give
 * activityTypeIds a value" did not say which (trial s18, N185).
 */
const ACTIVITY_TYPES_HINT =
  'Give activityTypeIds 1 to 10 activity types, ids or names (e.g. "Open Email,Click Email,Visit Webpage"); ' +
  'GET /rest/v1/activities/types.json lists the instance\'s types. More, or "all", with paginate true: read 10 at a time and joined.';

/**
 * 605 "Request method 'GET' not supported": the path is served with other methods. Adobe's Asset Swagger reads one
 * template's content with GET …/emailTemplate/{id}/content and updates it with POST …/content.json (trial s32,
 * N462: the agent was told to change the method when the path was what was wrong), so the path with or without
 * ".json" that takes the method is named.
 */
function methodHint(path: string, message: string): string | undefined {
  const method = /method '?(\w+)'? not supported/i.exec(message)?.[1]?.toUpperCase();
  const bare = path.split("?")[0] ?? path;
  if (!method) return undefined;
  const other = bare.endsWith(".json") ? bare.slice(0, -".json".length) : `${bare}.json`;
  const served = MARKETO_REAL_PATHS.find(other);
  const real = MARKETO_REAL_PATHS.find(bare);
  if (served?.methods.includes(method)) {
    return `${method} is served on ${other} (${bare.endsWith(".json") ? "without" : "with"} .json); ${bare} takes ${real?.methods.join("/") ?? "other methods"}. Call ${method} ${other}.`;
  }
  return real ? `${real.template} takes ${real.methods.join("/")}, not ${method}.` : undefined;
}

function nextStep(code: string, message: string, path: string): string | undefined {
  if (code === "610") return notFoundHint(path, message);
  if (code === "605") return methodHint(path, message) ?? NEXT_STEP[code];
  if (code === "701" && /filterType/i.test(message)) return filterTypeHint(path);
  if (code === "701" && /^folder cannot be blank/i.test(message)) return FOLDER_HINT;
  if (code === "701" && /^activityTypeIds cannot be blank/i.test(message)) return ACTIVITY_TYPES_HINT;
  const blank = code === "701" ? /^(\S+) cannot be blank/i.exec(message) : null;
  if (blank) return `Give ${blank[1]} a value.`;
  if (code === "1003") return invalidValueHint(message, path) ?? NEXT_STEP[code];
  if (code === "1006") return unknownFieldHint(path);
  return NEXT_STEP[code];
}

/**
 * 1006 "Field not found": the fields are those of the object the path reads, each listed by its own describe
 * (Describe Program Member: https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/program-members#describe;
 * Describe Custom Object). Program members were sent to the leads' describe (trial s16, N150).
 */
function unknownFieldHint(path: string): string | undefined {
  const bare = path.split("?")[0] ?? "";
  if (/^\/rest\/v1\/programs?\/(\d+\/)?members(\/|\.json)/.test(bare)) {
    return (
      "The field is not a program member field: GET /rest/v1/programs/members/describe.json lists them (result[0].fields " +
      "by name; searchableFields for filterType). A lead's own fields, and its membership's progressionStatus, are read " +
      "with GET /rest/v1/leads/programs/{programId}.json."
    );
  }
  if (/^\/rest\/v1\/leads\/programs\//.test(bare)) {
    // Get Leads by Program reads leads' fields; a member field (a program's custom member field) is not one.
    return (
      "The field is not a lead field (GET /rest/v1/leads/describe.json lists those). A program member field " +
      "(GET /rest/v1/programs/members/describe.json) is read from GET /rest/v1/programs/{programId}/members.json, " +
      'e.g. {"filterType":"reachedSuccess","filterValues":"true,false","fields":"leadId,<the field>"}.'
    );
  }
  const custom = /^\/rest\/v1\/customobjects\/([^/.]+)/.exec(bare);
  if (custom)
    return `The field is not one of ${custom[1]}'s: GET /rest/v1/customobjects/${custom[1]}/describe.json lists them.`;
  return NEXT_STEP["1006"];
}

/**
 * 610 "Requested resource not found" comes back both for a path Marketo does not have and for a real
 * path whose object is missing (or that a Marketo-compatible emulator does not serve): only the first
 * is a wrong path. Real paths come from Adobe's Swagger files (real-paths.generated.ts).
 */
function notFoundHint(path: string, message: string): string {
  const bare = path.split("?")[0] ?? path;
  const real = MARKETO_REAL_PATHS.find(bare);
  if (real && /does not emulate/i.test(message)) {
    // The sandbox's own words: the path is right and no id is wrong; only a real Marketo instance serves it.
    return `The path is right (${real.template}); the sandbox does not serve it: call it on a real Marketo instance.`;
  }
  if (real) {
    return (
      `${real.methods.join("/")} ${real.template} is a real Marketo endpoint and the instance answered not found: ` +
      "check the ids in the path, and that this instance (or emulator) serves this API."
    );
  }
  const near = MARKETO_REAL_PATHS.nearest(bare) ?? realParent(bare);
  // A real path this step does not call (the User Management API's /userservice/…, outside /rest/ and /bulk/)
  // is named as such, not offered: doing what "did you mean" said was refused as outside the allowed paths.
  if (near && !ENDPOINT_RULES.allowedPrefixes.some((prefix) => near.startsWith(prefix))) {
    return (
      `${bare} is no Marketo endpoint. The nearest real one, ${near}, is outside the paths this step calls ` +
      `(${ENDPOINT_RULES.allowedPrefixes.join(" and ")}): do that in Marketo itself. See the REST reference: ${MAPI_REFERENCE}`
    );
  }
  return `${bare} is no Marketo endpoint${near ? `; did you mean ${near}?` : "."} See the REST reference: ${MAPI_REFERENCE}`;
}

/**
 * The nearest real path a made-up sub-resource stands under: /rest/v1/programs/1012/members/customFields.json is
 * no endpoint, /rest/v1/programs/1012/members.json is (where program member fields are written; trial s16, N150).
 */
function realParent(bare: string): string | undefined {
  let path = bare;
  while (/\/[^/]+\/[^/]+\.json$/.test(path)) {
    path = path.replace(/\/[^/]+\.json$/, ".json");
    if (MARKETO_REAL_PATHS.find(path)) return path;
  }
  return undefined;
}

function permissionHint(path: string): string {
  const permission = path.startsWith("/rest/asset/")
    ? "Read-Only Assets or Read-Write Assets"
    : path.includes("/activities")
      ? "Read-Only Activity"
      : path.startsWith("/bulk/")
        ? "the bulk export or import permission for this object"
        : path.includes("/campaigns")
          ? "Execute Campaign"
          : "Read-Only Lead or Read-Write Lead (or the permission for this object)";
  return (
    `In Marketo Admin > Users & Roles, give the API-only user's role the API permission ${permission}, ` +
    "and if Admin > Web Services has an IP allowlist, add this server's address."
  );
}

/** One code and message: what one entry of errors[] means (see classifyErrors). */
export function classifyCode(
  code: string,
  message: string,
  context: { path: string; requestId: string | undefined; status: number },
): CodeVerdict {
  return classifyErrors([{ code, message }], context);
}

/** More entries than this in a message add nothing a person can act on. */
const ERRORS_SHOWN = 20;

/** The entries of errors[] as a message says them: the first 20, and how many more there are. */
export function saidErrors(errors: readonly { code: string; message: string }[]): string {
  const shown = errors
    .slice(0, ERRORS_SHOWN)
    .map((e) => `${e.code || "no code"}: ${e.message || "no message"}`)
    .join("; ");
  const more = errors.length - ERRORS_SHOWN;
  return more > 0 ? `${shown}; and ${more} more` : shown;
}

/**
 * What to do with every entry of a `success:false` answer's `errors[]`: the first that asks for a
 * replay, a wait or a stop (601/602, 606, 615, 607, transient codes) decides, since acting on it is
 * safe whatever the others say; otherwise the answer is an error that names them all (the first one's
 * next step as the hint), not only the first.
 */
export function classifyErrors(
  errors: readonly { code: string; message: string }[],
  context: { path: string; requestId: string | undefined; status: number },
): CodeVerdict {
  for (const { code } of errors) {
    if (code === "601" || code === "602") return { kind: "reauth", code };
    if (code === "606") return { kind: "rate_window", code };
    if (code === "615") return { kind: "concurrency", code };
    if (code === "607") return { kind: "quota", code };
  }
  const transient = errors.find((e) => TRANSIENT.has(e.code));
  if (transient) return { kind: "transient", code: transient.code };
  const first = errors[0] ?? { code: "", message: "" };
  const { code, message } = first;
  const details = {
    path: context.path,
    ...(context.requestId ? { requestId: context.requestId } : {}),
    ...(errors.length > 1
      ? { errors: errors.slice(0, ERRORS_SHOWN).map((e) => ({ code: e.code, message: e.message })) }
      : {}),
  };
  const all = errors.length > 1 ? saidErrors(errors) : "";
  const denied = errors.find((e) => e.code === "603");
  if (denied) {
    return {
      kind: "fatal",
      error: new PermissionError(
        `Marketo denied access to ${context.path} (${all || `603: ${denied.message || "Access denied"}`}).`,
        {
          hint: permissionHint(context.path),
          details: { serviceCode: "603", ...details },
        },
      ),
    };
  }
  const hint =
    nextStep(code, message, context.path) ??
    `See what code ${code || "(none)"} means at ${ERROR_CODES_DOC} and correct the request.`;
  return {
    kind: "fatal",
    error: new UpstreamError(
      `Marketo refused ${context.path} (${all || `${code || "no code"}: ${message || "no message"}`}).`,
      {
        hint,
        serviceCode: code || undefined,
        status: context.status,
        details,
      },
    ),
  };
}
