/**
 * Finding a Marketo object by its name in one marketo_api_call: the step's description names these,
 * and the MCP server serves them whole as the `martech-steps://recipes/marketo` resource. Each call is
 * an operation of Adobe's Swagger (https://developer.adobe.com/marketo-apis/api/mapi/ and
 * https://developer.adobe.com/marketo-apis/api/asset/): getListsUsingGET ("name: Comma-separated list
 * of static list names to return"), getCampaignsUsingGET ("name: Comma-separated list of names to
 * filter on"), getProgramByNameUsingGET, getEmailByNameUsingGET and getFolderByNameUsingGET (each with
 * a required `name`). test/tools/marketo-texts/recipes.test.ts runs every one against the sandbox.
 */

import { ACTIVITY_PAIR_RECIPES, type ComputeRecipe } from "./activity-recipes.js";

export interface Recipe {
  /** What it finds. */
  task: string;
  /** The marketo_api_call arguments, with `<name>` where the name goes. */
  call: { method: "GET"; endpoint: string; query_parameters: Record<string, string> };
  /** What to know about the answer. */
  note: string;
}

export const NAME_RECIPES: readonly Recipe[] = [
  {
    task: "a static list by name",
    call: { method: "GET", endpoint: "/rest/v1/lists.json", query_parameters: { name: "<name>" } },
    note: "Exact names, comma-separated for several; the answer's id is the listId of /rest/v1/lists/{listId}/leads.json.",
  },
  {
    task: "a smart campaign by name",
    call: { method: "GET", endpoint: "/rest/v1/campaigns.json", query_parameters: { name: "<name>" } },
    note: "Comma-separated names; the id is the campaignId of /rest/v1/campaigns/{id}/trigger.json or schedule.json.",
  },
  {
    task: "a program by name",
    call: {
      method: "GET",
      endpoint: "/rest/asset/v1/program/byName.json",
      query_parameters: { name: "<name>" },
    },
    note: "One exact name; the id is the programId of /rest/v1/leads/programs/{programId}.json (its members).",
  },
  {
    task: "an email by name",
    call: {
      method: "GET",
      endpoint: "/rest/asset/v1/email/byName.json",
      query_parameters: { name: "<name>" },
    },
    note: "One exact name; to browse instead, GET /rest/asset/v1/emails.json and compare each result's name.",
  },
  {
    task: "a folder by name",
    call: {
      method: "GET",
      endpoint: "/rest/asset/v1/folder/byName.json",
      query_parameters: { name: "<name>" },
    },
    note: "One exact name; add type Folder or Program to tell them apart.",
  },
];

export const COMPUTE_RECIPES: readonly ComputeRecipe[] = [
  {
    task: "leads with a score above 50, as a CSV file",
    call: {
      method: "POST",
      endpoint: "/bulk/v1/leads/export/create.json",
      body: {
        fields: ["id", "email", "firstName", "lastName", "leadScore"],
        format: "CSV",
        filter: { createdAt: { startAt: "<from>", endAt: "<to>" } },
      },
      run_to_completion: true,
      where: "leadScore > 50",
      order_by: "-leadScore",
    },
    note:
      "Any createdAt span: Marketo exports 31 days a job, so the step runs one job per 31 days and joins their files " +
      "(duplicates dropped by lead id). The answer says how many leads match, shows a preview and links one CSV " +
      "(the header once, every row) and one JSON file, kept 24 hours. Export values are text; numbers compare as numbers.",
  },
  {
    // Trial 2026-12-03, N45: counted per email × type, then built "sent, delivered, opened, clicked per email" by hand.
    task: "email performance per email in one call: sent, delivered, opened, clicked per email as columns (unique leads), over any span",
    call: {
      method: "POST",
      endpoint: "/bulk/v1/activities/export/create.json",
      body: {
        format: "CSV",
        filter: {
          createdAt: { startAt: "<from>", endAt: "<to>" },
          activityTypeIds: ["Send Email", "Email Delivered", "Open Email", "Click Email"],
        },
      },
      run_to_completion: true,
      count_by: "primaryAttributeValue,activityType:columns",
      count_distinct: "leadId",
    },
    note:
      "One row per email (primaryAttributeValue), a column per activity type (Send Email, Email Delivered, Open " +
      "Email, Click Email), each cell its unique leads (an open counted once per lead), 0 where none. Without " +
      "count_distinct each cell counts activities (every open) and a total column adds each row. The step computes " +
      'rates: order_by "-Open Email/Email Delivered,Click Email/Email Delivered,Click Email/Open Email" adds open ' +
      'rate, click rate and click-to-open to each row and ranks by the first; order_by "-Click Email" ranks by ' +
      "clicks. Add where " +
      "'primaryAttributeValue contains \"Newsletter\"' to keep some emails. Marketo's REST API has no Email " +
      "Performance or Program Performance report (those are Analytics reports of the Marketo UI; the REST reference " +
      "has none): counts from the activity log can differ a little from them.",
  },
  // Two activities, or an activity and its lead, in one read.
  ...ACTIVITY_PAIR_RECIPES,
  {
    task: "a lead's history since a date",
    call: {
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: {
        sinceDatetime: "<from>",
        leadIds: "<leadId>",
        activityTypeIds: "all",
      },
      paginate: true,
      max_pages: 200,
      order_by: "-activityDate",
    },
    note:
      "sinceDatetime: the step fetches the paging token for you. Marketo scans its activity log a slice at a time, " +
      "so one lead's history takes many pages, most of them empty: max_pages 200 lets the one call reach today. " +
      'activityTypeIds takes names or ids (GET /rest/v1/activities/types.json lists them), or "all": Marketo reads ' +
      "at most 10 types at a time, so with paginate the step reads more in groups of 10 and joins them in time " +
      "order; every activity names its type (activityType).",
  },
  {
    // Marketo's filters take instants (bulk-lead-extract#filters): agent trial s6, N06 wrote 1 Nov as -05:00
    // when New York was on -04:00 until 02:00 that day, and lost a lead. tools/marketo/date-bounds.ts.
    task: "leads created in a calendar month in a time zone (dates, not offsets)",
    call: {
      method: "POST",
      endpoint: "/bulk/v1/leads/export/create.json",
      body: {
        fields: ["id", "email", "createdAt"],
        format: "CSV",
        filter: { createdAt: { startAt: "2026-11-01", endAt: "2026-11-30" } },
      },
      time_zone: "America/New_York",
      run_to_completion: true,
    },
    note:
      "With time_zone, a date in startAt is that zone's midnight and a date in endAt the end of its day (the next " +
      "day's midnight; Marketo counts both ends in), each with the zone's offset on that date, DST included: here " +
      "2026-11-01T04:00:00Z to 2026-12-01T05:00:00Z. The answer states the window in the zone and in UTC. A " +
      "datetime with an offset that is not the zone's at that time is refused (in where too), with the value to send; one without " +
      "an offset is read in the zone. sinceDatetime (activities.json) takes a date the same way. Without " +
      "time_zone, dates are read the same way in UTC, and datetimes are sent as given (those with an offset stated in UTC).",
  },
  {
    // Period costs come only from Get Program by Id (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/programs#by-id):
    // agent trial s7, N18 read 30 programs in 30 calls. tools/marketo/fan-out.ts.
    task: "several programs with their period costs, in one call",
    call: {
      method: "GET",
      endpoint: "/rest/asset/v1/program/{id}.json",
      query_parameters: { id: [1001, 1002, 1003] },
    },
    note:
      "Your program ids in the list (GET /rest/asset/v1/programs.json lists them), up to 200: each is read once, " +
      "one call each, and the answer joins them. Each program's costs holds its period costs ({startDate, cost, " +
      "note}). An id Marketo does not have is named in the summary; the others are kept.",
  },
  {
    // Trial s33, N496: no call gave a group's first or last value; a model read 149,471 characters of leads for them.
    task: "when each campaign's first and last lead came (a group's first and last date), in one call",
    call: {
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "id", filterValues: "1,2,3", fields: "utmCampaign,createdAt" },
      count_by: "utmCampaign",
      sum: "createdAt",
      order_by: "min",
    },
    note:
      "sum of a date adds nothing: each row's min and max are its first and last createdAt, its median the middle " +
      "one, earliest campaign first. Over every lead, read a lead export (run_to_completion) with the same count_by and sum.",
  },
  {
    // Trial s34: agents took each group's top row from hundreds of count rows by hand (records/limit-each.ts).
    task: "each email's busiest day of opens (the top row of each group), in one call",
    call: {
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { activityTypeIds: "Open Email", sinceDatetime: "2026-11-01" },
      paginate: true,
      count_by: "primaryAttributeValue,activityDate:day",
      limit: "1 per primaryAttributeValue",
    },
    note:
      'Count rows come most frequent first, so limit "1 per primaryAttributeValue" keeps each email\'s busiest ' +
      'day ("3 per …" its top 3). The summary names the groups whose next day ties the one kept.',
  },
  {
    // Costs are per period inside each program record (Adobe's Programs page, "Costs"): issue 27, spend per program.
    task: "spend per program (period costs added), ranked, in one call",
    call: {
      method: "GET",
      endpoint: "/rest/asset/v1/program/{id}.json",
      query_parameters: { id: [1001, 1002, 1003] },
      count_by: "id,name",
      sum: "costs.cost",
      order_by: "-sum",
    },
    note:
      "Your program ids in the list, up to 200, one call each. Each row is a program, its sum every period cost " +
      "({startDate, cost, note}) added, highest first; the summary states the total. 0 is a program with no costs. " +
      "For one period add where: 'costs.startDate >= \"2026-01-01\"': only the costs it holds for are added.",
  },
  {
    // Members only per program (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads#get-leads-by-program-id): trial s7, N21.
    // A member's custom fields come from Get Program Members (trial s40, N576: a call spent on 1006 here):
    // https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/program-members
    task: "members per program, counted and ranked, in one call",
    call: {
      method: "GET",
      endpoint: "/rest/v1/leads/programs/{programId}.json",
      query_parameters: { programId: [1001, 1002, 1003], fields: "id" },
      paginate: true,
      count_by: "programId",
      order_by: "-count",
    },
    note:
      "Your program ids in the list, up to 200. Each program's members are read (every page) and tagged with its " +
      "programId, so count_by counts them per program and the counts add up to the members read; count_by " +
      '"programId,membership.progressionStatus" splits each program by status, and where ' +
      "'membership.reachedSuccess = true' keeps the successes. A member's own fields (the program's custom member " +
      "fields) are not read here: GET /rest/v1/programs/{programId}/members.json with filterType reachedSuccess, " +
      'filterValues "true,false" and fields (e.g. "leadId,membershipDate,myCustomField") reads them, and POST to ' +
      'that path with {input: [{leadId, myCustomField: "…"}]} sets them (Adobe\'s Sync Program Member Data).',
  },
  {
    // Trial s40 N570: "new to us when created at most 24 hours before joining" was worked out member by member.
    task: "each program's new members: joined since a date, the lead created at most 24 hours before joining, in one call",
    call: {
      method: "GET",
      endpoint: "/rest/v1/leads/programs/{programId}.json",
      query_parameters: { programId: [1011, 1013], fields: "id,createdAt" },
      paginate: true,
      where: 'membership.membershipDate >= "<from>"',
      count_by: "programId,createdAt >= membership.membershipDate - 24h:columns",
    },
    note:
      "A field compared with another moved by a span: - 24h, + 7d, - 30m, + 2w (times), or + 10 (numbers). Each " +
      "program's row counts its members joined since <from> in columns true (created at most 24 hours before joining, " +
      "or after), false and total.",
  },
  {
    // Trial s8, N29: which lead fields mean "cannot be emailed" was said nowhere. Marketo's standard mailability
    // fields, as a real instance's lead record carries them (src/sandbox/marketo/lead-db/mailability.ts has the source).
    task: "leads on each static list that cannot be emailed, in one call",
    call: {
      method: "GET",
      endpoint: "/rest/v1/lists/{listId}/leads.json",
      query_parameters: {
        listId: [1001, 1002, 1003],
        fields: "id,unsubscribed,emailInvalid,marketingSuspended,blackListed,emailSuspended",
      },
      paginate: true,
      where:
        "unsubscribed = true or emailInvalid = true or marketingSuspended = true or blackListed = true or emailSuspended = true",
      count_by: "listId",
      order_by: "-count",
    },
    note:
      "Your list ids (GET /rest/v1/lists.json names them), up to 200. A lead cannot be emailed when any of the five " +
      'fields is true; a list with none counts 0. Why: count_by "listId,emailInvalid" (or another field) splits ' +
      'each list; without where and count_by "listId" the same call counts every member.',
  },
  {
    task: "leads by source",
    call: {
      method: "POST",
      endpoint: "/bulk/v1/leads/export/create.json",
      body: {
        fields: ["id", "leadSource"],
        format: "CSV",
        filter: { createdAt: { startAt: "<from>", endAt: "<to>" } },
      },
      run_to_completion: true,
      count_by: "leadSource",
    },
    note: "The count of leads created in the span per lead source, and the total; no lead is listed.",
  },
  {
    // Agent trial s7, N23: a model bucketed timestamps by day itself (89,560 characters read, a miscount).
    task: "leads created per day last week, in a time zone",
    call: {
      method: "POST",
      endpoint: "/bulk/v1/leads/export/create.json",
      body: {
        fields: ["id", "createdAt"],
        format: "CSV",
        filter: { createdAt: { startAt: "<from>", endAt: "<to>" } },
      },
      time_zone: "America/New_York",
      run_to_completion: true,
      count_by: "createdAt:day",
    },
    note:
      "<from> is last week's Monday and <to> its Sunday, as dates (2026-11-23, 2026-11-29): with time_zone they are " +
      "that zone's days. One row per day of createdAt in the zone, in date order, each day between the first and the " +
      "last lead counted listed, 0 when no lead was created that day (a day before the first lead or after the last " +
      'is not). "createdAt:week", ":month", ":quarter" or ":year" counts per ISO week (named by its Monday), month, ' +
      "quarter (2026-Q4) or year; without time_zone the days are UTC's.",
  },
  {
    // Agent trial s8, N35: a model grouped 3,057 email activities by weekday and hour itself (98,675 characters).
    task: "email opens by weekday and hour of day, in a time zone",
    call: {
      method: "POST",
      endpoint: "/bulk/v1/activities/export/create.json",
      body: {
        format: "CSV",
        filter: { createdAt: { startAt: "<from>", endAt: "<to>" }, activityTypeIds: ["Open Email"] },
      },
      time_zone: "America/New_York",
      run_to_completion: true,
      count_by: "activityDate:weekday,activityDate:hour",
    },
    note:
      "168 rows, Monday 00 to Sunday 23 on the zone's clock, 0 where no open fell. count_by " +
      '"activityDate:weekday" or "activityDate:hour" alone gives 7 or 24 rows; order_by "-count" puts the busiest first.',
  },
  {
    task: "leads that share an email, ignoring case and outer spaces",
    call: {
      method: "POST",
      endpoint: "/bulk/v1/leads/export/create.json",
      body: {
        fields: ["id", "email"],
        format: "CSV",
        filter: { createdAt: { startAt: "<from>", endAt: "<to>" } },
      },
      run_to_completion: true,
      count_by: "email",
      count_by_ignore_case: true,
      min_count: 2,
    },
    note:
      "Only the emails on two or more leads, each as first read with its count and how many spellings it merges; " +
      "the answer says how many such emails there are, the leads on them and the distinct emails of all. To list " +
      "one email's leads, call again with where 'email = \"…\"' (text compares ignoring case) instead of count_by.",
  },
];

/**
 * What Marketo's REST API does not offer, said plainly: its reference lists no report or statistics endpoint
 * (https://developer.adobe.com/marketo-apis/api/mapi/ and https://developer.adobe.com/marketo-apis/api/asset/;
 * its /rest/v1/stats/ endpoints count API calls only,
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/usage). Email
 * performance lives in the UI's Analytics reports and email program dashboards, whose "Bounced and Delivered
 * stats are approximate"
 * (https://experienceleague.adobe.com/en/docs/marketo/using/product-docs/email-marketing/email-programs/email-program-data/use-the-email-program-dashboard).
 */
export const NOT_IN_THE_REST_API: readonly string[] = [
  "No Analytics reports (Email Performance, Program Performance, Landing Page Performance, People Performance): count activities with count_by instead (the email performance recipe).",
  "No program or landing page statistics endpoints (/rest/asset/v1/program/{id}/stats.json does not exist); /rest/v1/stats/ counts API calls only.",
  // Trial s8, N33: the agent could only guess. Adobe's Smart Campaigns page offers query, create, update, clone,
  // delete, activate and the smart list (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/smart-campaigns);
  // no endpoint reads a campaign's flow.
  "No smart campaign flow steps: a campaign's smart list (its rules) is GET /rest/asset/v1/smartCampaign/{id}/smartList.json with includeRules=true; what its flow does is seen only in Marketo.",
  // Trial s15, N133: two calls to learn it. Adobe's User Management API lives under /userservice/management/v1/
  // (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/user-management), outside the
  // /rest/ and /bulk/ paths this step calls.
  "No users or roles: Marketo's User Management API (/userservice/management/v1/...) is outside the paths this step calls (/rest/, /bulk/); see users in Marketo's Admin > Users & Roles.",
];

/** The recipes in one sentence, for the step's description (the tool list stays small). */
export function recipesInBrief(): string {
  const calls = NAME_RECIPES.map(
    (r) => `${r.task.replace(/^an? /, "").replace(" by name", "")} ${r.call.endpoint}?name=`,
  );
  return `Find by name in one call: ${calls.join("; ")} (more, e.g. email performance: martech-steps://recipes/marketo).`;
}
