/**
 * Recipes of activities read with something beside them, in one marketo_api_call: the activity before or after
 * (`previous`, `next`), the lead's row of its activities (`per`), its lead's fields (`lead_fields`). Served in the
 * recipes resource with the rest (recipes.ts); test/mcp/marketo-previous.test.ts, marketo-next.test.ts,
 * marketo-per.test.ts and marketo-lead-fields.test.ts run them against the sandbox.
 */
/** A task done in one call with the step's own computing (where, order_by, count_by) or its export joining. */
export interface ComputeRecipe {
  task: string;
  /** The marketo_api_call arguments; <from>, <to> (ISO datetimes, or dates with time_zone) and <leadId> are placeholders. */
  call: Record<string, unknown>;
  note: string;
}

export const ACTIVITY_PAIR_RECIPES: readonly ComputeRecipe[] = [
  {
    // Trials s27 N368 and s28 N387: the agent read 240,000 and 390,000 characters to pair sends with clicks itself.
    task: "hours from an email's send to each click, per email, in one call (and other pairs: a visit before a form fill)",
    call: {
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: "<from>", activityTypeIds: "Send Email,Click Email" },
      paginate: true,
      max_pages: 200,
      previous: "Send Email",
      where: 'activityType = "Click Email"',
      count_by: "primaryAttributeValue",
      sum: "previous_hours",
    },
    note:
      "previous gives each activity the lead's last activity of that type before it (of the same email when both " +
      "types name a Mailing ID) and previous_hours the hours between; sum gives each email's mean and median hours " +
      'from send to click. count_by "previous_hours:24" counts clicks by days after the send; with Open Email, ' +
      'count_by "previous.activityDate:weekday" counts opens by their send\'s weekday. The page visited last before ' +
      'a form: activityTypeIds "Visit Webpage,Fill Out Form", previous "Visit Webpage", where activityType = "Fill ' +
      'Out Form", count_by "previous.primaryAttributeValue". The activity before is looked for among those read, ' +
      "from sinceDatetime.",
  },
  {
    // Trials s29 N398 and s30 N426, N428, N435: agents read up to 158,000 characters to match each activity with
    // the first of another type after it (a form filled after a click, a delivery after a bounce).
    task: "the first activity of a type after each: clicks followed by a form fill within 7 days, in one call",
    call: {
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: "<from>", activityTypeIds: "Click Email,Fill Out Form" },
      paginate: true,
      max_pages: 200,
      next: "Fill Out Form",
      where: 'activityType = "Click Email"',
      count_by: "next_hours <= 168",
    },
    note:
      "next gives each activity the lead's first activity of that type after it and next_hours the hours between " +
      '(none read: null); "Fill Out Form:any", "Send Email:any" pair on the lead alone where both types name the ' +
      'same kind of asset (a delivery of any email after a bounce: next "Email Delivered:any"). The same works on ' +
      "an activity export run to completion, for spans past what one read holds; previous and next go together. " +
      'A lead\'s first form fill to its second, of any form: previous and next "Fill Out Form:any", where "previous ' +
      'is empty and next is not empty" (each lead\'s first fill with a second), count_by "activityType", sum ' +
      '"next_hours" (mean and median hours).',
  },
  {
    // Trials s27 and s28: segments and counts of counts were worked out by the agent from whole activity logs.
    task: "leads by what they did: web only, email only or both (segments), or how many got 1, 2, 3 emails, in one call",
    call: {
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: "<from>", activityTypeIds: "Visit Webpage,Click Email" },
      paginate: true,
      max_pages: 200,
      per: "leadId",
      count_by: "types",
    },
    note:
      'per "leadId" rolls the activities that match where up to one row per lead, with records (its activities) and ' +
      'types (its activity types, sorted, joined by " + "): count_by "types" counts leads per segment ("Click Email", ' +
      '"Click Email + Visit Webpage", "Visit Webpage"); with activityTypeIds "Send Email", count_by "records" counts ' +
      'leads per number of emails sent; order_by "-records" with limit 10 lists the most active leads. per ' +
      '"leadId,attributes.Is Mobile Device" also lists each lead\'s distinct values of that field ("false + true": ' +
      "opened on phone and computer) and their number (attributes.Is Mobile Device_count), for count_by; a date " +
      'bucket lists days, weeks or months ("leadId,activityDate:day": activityDate:day_count is the days a lead was active). Only leads ' +
      'with a matching activity are rows. Reads per id roll up too (per "id" over /rest/v1/leads/programs/{programId}.json ' +
      "with several programIds: leads by how many of those programs they are in).",
  },
  {
    // Trials s29 N409, N415: activities were joined to the leads' country and email domain by hand.
    task: "activities by their leads' own fields (opens by lead source, country or email), in one call",
    call: {
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: "<from>", activityTypeIds: "Open Email" },
      paginate: true,
      max_pages: 200,
      lead_fields: "leadSource,country",
      count_by: "lead.leadSource",
    },
    note:
      "lead_fields gives each activity (or program member) lead, those fields of its lead, read 300 leads a call " +
      '(counted in calls_used): where, count_by, per and sum read lead.country; count_by "lead.country,activityType:columns" ' +
      "pivots; a lead field read in where or count_by must be named in lead_fields (an email's domain: lead_fields " +
      '"email", where lead.email ends_with "@acme.com"). The fields hold the leads\' values now, not at each activity\'s date.',
  },
  {
    // Trial s41 N582: "the most regular visitor in each industry, the latest visit breaking ties" read 777,000 characters.
    task: "the most active lead in each group (industry, source), with its first and last visit, in one call",
    call: {
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: "<from>", activityTypeIds: "Visit Webpage" },
      paginate: true,
      max_pages: 200,
      lead_fields: "industry",
      count_by: "lead.industry,leadId",
      sum: "activityDate",
      order_by: "-count,-max",
      limit: "1 per lead.industry",
    },
    note:
      "sum on a date gives each row its first (min) and last (max) date, not a sum: count_by leadId alone lists each " +
      'lead\'s visits, first and last visit. order_by "-count,-max" ranks by visits, the latest visit breaking a tie; ' +
      'limit "1 per lead.industry" keeps the top row of each industry ("3 per …" the top 3).',
  },
  {
    // Trial s41 N580: "pages that pull the same people back on different days" read 729,000 characters.
    task: "pages that bring the same people back on different days (visitors of a page on 2 days or more), in one call",
    call: {
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: "<from>", activityTypeIds: "Visit Webpage" },
      paginate: true,
      max_pages: 200,
      per: "primaryAttributeValue & leadId,activityDate:day",
      count_by: "primaryAttributeValue,activityDate:day_count >= 2:columns",
      order_by: "-true",
    },
    note:
      'per on two fields joined by "&" gives a row per page and visitor, with the days they came (activityDate:day) ' +
      "and how many (activityDate:day_count); count_by counts each page's visitors by whether they came on 2 days or " +
      'more (columns true, false, total), order_by "-true" ranks pages by returning visitors. time_zone sets the days\' clock.',
  },
  {
    // Trial s41 N578: "how many emails until a first click" read 657,000 characters of sends and clicks back.
    task: "how many emails each lead was sent before its first click (activities before another's first), in one call",
    call: {
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: "<from>", activityTypeIds: "Send Email,Click Email" },
      paginate: true,
      max_pages: 200,
      previous: "Click Email:any",
      next: "Click Email:any",
      where: 'activityType = "Send Email" and previous is empty and next is not empty',
      per: "leadId",
      count_by: "records",
    },
    note:
      "Each send carries the lead's last click before it (previous) and first after it (next), of any email (:any): " +
      "one with no click before and one after is a send before the lead's first click. per rolls them up a row per " +
      'lead, count_by records counts leads by how many they were sent; lead_fields "leadSource" and count_by ' +
      '"lead.leadSource,records" split it by source. Clicks before <from> are not read: a lead who clicked earlier counts from <from>.',
  },
  {
    // Trial s46 N633: "emails within 7 days after each attendee's own attendance" was one where clause per lead.
    task: "activities within days after each lead's own date (a program success, a membership), in one call",
    call: {
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: "<from>", activityTypeIds: "Email Delivered" },
      paginate: true,
      max_pages: 200,
      join: '"/rest/v1/programs/<programId>/members.json?filterType=reachedSuccess&filterValues=true&fields=leadId,statusName,reachedSuccessDate" on leadId = leadId',
      where:
        "joined is not empty and activityDate > joined.reachedSuccessDate and activityDate <= joined.reachedSuccessDate + 7d",
      count_by: "leadId",
    },
    note:
      "join gives each activity its lead's member row (joined; none for a lead not in the program), so where " +
      "compares each activity with that lead's own date, moved by a span (+ 7d). <from> on or before the earliest " +
      "date counted from: activities before it are not read, so a lead whose days began earlier counts only those " +
      "after <from>. A program member's fields are its own (statusName, reachedSuccessDate, membershipDate: GET " +
      "/rest/v1/programs/members/describe.json), not a lead's membership.progressionStatus; from each member's " +
      'joining: filterValues "true,false" and joined.membershipDate. A join on a kept result\'s link works the same.',
  },
];
