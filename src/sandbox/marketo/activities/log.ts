/**
 * Activity types (standard ids as Marketo numbers them) and the seeded activity log: web visits,
 * form fills, email send chains (send → delivered | bounced | soft bounced → open → click), new
 * leads and data value changes, spread over the 60 days before the clock.
 */

import type { Prng } from "../../prng.js";
import type { MarketoForm } from "../assets/model.js";
import { LEAD_FIELDS } from "../lead-db/fields.js";
import type { Activity, ActivityTypeDef, Campaign, EmailAsset, World } from "../types.js";

const DAY_MS = 86_400_000;
export const ACTIVITY_WINDOW_MS = 60 * DAY_MS;

const t = (name: string, dataType = "string") => ({ name, dataType });

/**
 * Open Email's device and Click Email's link, as Adobe's Lead Activity Data Stream lists their attributes ("Open
 * Email 10: Campaign Run ID, Platform, Device, Mailing ID, User Agent, Is Mobile Device"; "Click Email 11: Campaign
 * Run ID, Mailing ID, Link": https://developer.adobe.com/events/docs/guides/using/marketo/marketo-lead-activity-data-stream-setup/).
 * Trial s25 (N318, N319): the sandbox had neither, so an email's clicks by link and opens on phones could not be told.
 */
const EMAIL_EXTRAS: Record<number, { name: string; dataType: string }[]> = {
  10: [t("Platform"), t("Device"), t("User Agent"), t("Is Mobile Device", "boolean")],
  11: [t("Link"), t("Platform"), t("Device"), t("User Agent"), t("Is Mobile Device", "boolean")],
};

/** The devices opens and clicks come from: platform, device, user agent, whether mobile. */
const DEVICES = [
  ["iOS", "iPhone", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15", true],
  ["Android", "Pixel 8", "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36", true],
  ["Mac OS", "Mac", "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15", false],
  ["Windows", "PC", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36", false],
] as const;
/** The links an email's clicks land on, under the email's own path. */
const LINKS = ["shop", "offer", "blog", "preferences"] as const;

/**
 * An open's or click's device and link, from the lead, the email and the time (not the seed's stream, so the
 * rest of the seeded world is as before): a lead reads on one device, about half on phones.
 */
function emailExtras(leadId: number, email: EmailAsset, at: number, clicked: boolean) {
  const [platform, device, agent, mobile] = DEVICES[(leadId * 7 + email.id) % DEVICES.length] ?? DEVICES[0];
  const slug = email.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  const link = LINKS[Math.floor(at / 1000 + leadId) % LINKS.length];
  return [
    ...(clicked ? [{ name: "Link", value: `https://www.example.com/${slug}/${link}` }] : []),
    { name: "Platform", value: platform },
    { name: "Device", value: device },
    { name: "User Agent", value: agent },
    { name: "Is Mobile Device", value: mobile },
  ];
}

/** Standard type ids, per Talend's getLocalActivityTypes and the Marketo activity docs. */
export const ACTIVITY_TYPES: readonly ActivityTypeDef[] = [
  {
    id: 1,
    name: "Visit Webpage",
    description: "User visits a web page",
    primaryAttribute: t("Webpage ID", "integer"),
    attributes: [
      t("Client IP Address"),
      t("Query Parameters"),
      t("Referrer URL"),
      t("User Agent"),
      t("Webpage URL"),
    ],
  },
  {
    id: 2,
    name: "Fill Out Form",
    description: "User fills out and submits a form",
    primaryAttribute: t("Webform ID", "integer"),
    attributes: [t("Client IP Address"), t("Form Fields", "text"), t("Webpage ID", "integer")],
  },
  {
    id: 3,
    name: "Click Link",
    description: "User clicks a link",
    primaryAttribute: t("Link ID", "integer"),
    attributes: [],
  },
  ...[
    [6, "Send Email", "Send a Marketo Email to a person"],
    [7, "Email Delivered", "Marketo Email is delivered to a person"],
    [8, "Email Bounced", "Marketo Email hard bounces"],
    [9, "Unsubscribe Email", "Person unsubscribes from Marketo Emails"],
    [10, "Open Email", "User opens Marketo Email"],
    [11, "Click Email", "User clicks on a link in a Marketo Email"],
    [27, "Email Bounced Soft", "Marketo Email soft bounces"],
  ].map(([id, name, description]) => ({
    id: id as number,
    name: name as string,
    description: description as string,
    primaryAttribute: t("Mailing ID", "integer"),
    attributes: [
      t("Campaign Run ID", "integer"),
      t("Choice Number", "integer"),
      t("Step ID", "integer"),
      ...(EMAIL_EXTRAS[id as number] ?? []),
    ],
  })),
  {
    id: 12,
    name: "New Lead",
    description: "New person",
    attributes: [t("Source Type"), t("Form Name"), t("List Name")],
  },
  {
    id: 13,
    name: "Change Data Value",
    description: "Changed attribute value for a person",
    primaryAttribute: t("Attribute Name", "integer"),
    attributes: [t("New Value"), t("Old Value"), t("Reason"), t("Source")],
  },
  {
    id: 24,
    name: "Add to List",
    description: "Person added to a list",
    primaryAttribute: t("List ID", "integer"),
    attributes: [t("Source")],
  },
  {
    id: 25,
    name: "Remove from List",
    description: "Person removed from a list",
    primaryAttribute: t("List ID", "integer"),
    attributes: [t("Source")],
  },
  {
    // Attribute names inferred: the docs name the type (Merge Leads, 32), not its attributes.
    id: 32,
    name: "Merge Leads",
    description: "Merge two or more leads",
    primaryAttribute: t("Lead ID", "integer"),
    attributes: [t("Merge IDs"), t("Merged in Sales", "boolean"), t("Merge Source")],
  },
  {
    id: 37,
    name: "Delete Lead",
    description: "Delete person",
    attributes: [t("Remove from CRM", "boolean")],
  },
  {
    id: 104,
    name: "Change Status in Progression",
    description: "Change a person's program status",
    primaryAttribute: t("Program ID", "integer"),
    attributes: [t("New Status ID", "integer"), t("Old Status ID", "integer"), t("Reason")],
  },
  {
    // Id and name from Adobe's activity type list, which files 145 among the types without a program id
    // (lead-db/push.ts cites it); the description and the attributes (the request's fields) are inferred.
    id: 145,
    name: "Push Lead to Marketo",
    description: "Person pushed to Marketo through the REST API",
    attributes: [t("Program Name"), t("Source"), t("Reason")],
  },
];

/**
 * The site's own pages, tracked by Munchkin: not Marketo landing pages, so their Webpage IDs (100 + index)
 * are none the Asset API's landing pages hold (those start at 1001). Adobe's Visit Webpage example is one
 * such page: id 71, "localhost/munchkintest2.html"
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/activities).
 */
const PAGES = ["/pricing", "/blog/attribution", "/product/automation", "/contact", "/webinars"];
const PAGE_ID_BASE = 100;
/** The form the contact page holds, by its name among the seeded forms (assets/seed.ts). */
const CONTACT_FORM = "Contact Us";
const CONTACT_PAGE = "/contact";
const CHANGE_FIELDS = ["leadScore", "title", "leadStatus", "company", "customerTier"];

/** Inserts keeping `world.activities` sorted by time; appends are the common case (clock moves forward). */
export function appendActivity(world: World, activity: Omit<Activity, "id">): Activity {
  const full: Activity = { ...activity, id: world.nextActivityId++ };
  const list = world.activities;
  let i = list.length;
  while (i > 0 && (list[i - 1] as Activity).at > full.at) i--;
  list.splice(i, 0, full);
  return full;
}

/**
 * What a requested campaign's flow logs: flows are not emulated, so each requested lead gets the one step
 * the seeded trigger campaigns stand for, a Send Email (6) of an email of the campaign's program (else the
 * first email), carrying the campaignId as Marketo's flow activities do
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/activities).
 * The trigger answer tells the caller to look for exactly these.
 */
export function logCampaignRun(
  world: World,
  campaign: Campaign,
  leadIds: readonly number[],
  at: number,
): void {
  const email = world.emails.find((e) => e.programId === campaign.programId) ?? world.emails[0];
  if (!email) return;
  for (const leadId of leadIds) {
    appendActivity(world, {
      leadId,
      at,
      activityTypeId: 6,
      campaignId: campaign.id,
      primaryAttributeValueId: email.id,
      primaryAttributeValue: email.name,
      attributes: [
        { name: "Campaign Run ID", value: campaign.id * 10 + 1 },
        { name: "Choice Number", value: 0 },
        { name: "Step ID", value: 1 },
      ],
    });
  }
}

function ip(prng: Prng): string {
  return `10.${prng.int(0, 255)}.${prng.int(0, 255)}.${prng.int(1, 254)}`;
}

function emailChain(
  prng: Prng,
  out: Omit<Activity, "id">[],
  leadId: number,
  email: EmailAsset,
  at: number,
  campaignId: number,
): void {
  const base = {
    leadId,
    campaignId,
    primaryAttributeValueId: email.id,
    primaryAttributeValue: email.name,
    attributes: [
      { name: "Campaign Run ID", value: campaignId * 10 + 1 },
      { name: "Choice Number", value: 0 },
      { name: "Step ID", value: 1 },
    ],
  };
  out.push({ ...base, at, activityTypeId: 6 });
  const roll = prng.next();
  if (roll < 0.03) {
    out.push({ ...base, at: at + prng.int(1_000, 60_000), activityTypeId: 27 });
    return;
  }
  if (roll < 0.05) {
    out.push({ ...base, at: at + prng.int(1_000, 60_000), activityTypeId: 8 });
    return;
  }
  const delivered = at + prng.int(1_000, 60_000);
  out.push({ ...base, at: delivered, activityTypeId: 7 });
  if (!prng.chance(0.4)) return;
  const opened = delivered + prng.int(60_000, 6 * 3_600_000);
  const extras = (when: number, clicked: boolean) => [
    ...base.attributes,
    ...emailExtras(leadId, email, when, clicked),
  ];
  out.push({ ...base, at: opened, activityTypeId: 10, attributes: extras(opened, false) });
  if (prng.chance(0.3)) {
    const clicked = opened + prng.int(5_000, 600_000);
    out.push({ ...base, at: clicked, activityTypeId: 11, attributes: extras(clicked, true) });
  }
}

/** "New Lead" (12) for every lead created in the window, at its creation. */
function newLeads(world: World, start: number): Omit<Activity, "id">[] {
  const out: Omit<Activity, "id">[] = [];
  for (const lead of world.leads.values()) {
    const created = lead.createdAt as number;
    if (created > start) {
      const source = lead.originalSourceType === "Web form fill-out" ? "Web form fillout" : "New person";
      out.push({
        leadId: lead.id,
        at: created,
        activityTypeId: 12,
        attributes: [{ name: "Source Type", value: source }],
      });
    }
  }
  return out;
}

/** "Visit Webpage" (1). */
function pageVisit(prng: Prng, leadId: number, at: number): Omit<Activity, "id"> {
  const pageId = prng.int(0, PAGES.length - 1);
  return {
    leadId,
    at,
    activityTypeId: 1,
    primaryAttributeValueId: PAGE_ID_BASE + pageId,
    primaryAttributeValue: `www.example.com${PAGES[pageId]}`,
    attributes: [
      { name: "Client IP Address", value: ip(prng) },
      { name: "Query Parameters", value: prng.chance(0.3) ? "utm_source=newsletter" : "" },
      { name: "Referrer URL", value: prng.chance(0.5) ? "https://www.google.com/" : "" },
      { name: "User Agent", value: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)" },
      { name: "Webpage URL", value: PAGES[pageId] as string },
    ],
  };
}

/**
 * "Fill Out Form" (2) of the contact page's form. Its Webform ID is the form's id in the Asset API and its
 * name the form's name there, read from the seeded form itself: "Webform ID ... refers back to the Marketo
 * ID of the form that was filled out"
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/activities),
 * and a bulk activity export filters Fill Out Form by the form id Get Form by Name gives, or by the name
 * Get Form by Id gives
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-activity-extract).
 */
function formFill(prng: Prng, form: MarketoForm, leadId: number, at: number): Omit<Activity, "id"> {
  return {
    leadId,
    at,
    activityTypeId: 2,
    primaryAttributeValueId: form.id,
    primaryAttributeValue: form.name,
    attributes: [
      { name: "Client IP Address", value: ip(prng) },
      { name: "Form Fields", value: '{"Email":"redacted","Company":"redacted"}' },
      { name: "Webpage ID", value: PAGE_ID_BASE + PAGES.indexOf(CONTACT_PAGE) },
    ],
  };
}

/**
 * "Change Data Value" (13) on one of the lead's fields, its New and Old Value left empty: field-changes.ts
 * settles them once the whole log is drawn, as the values the field holds after and before the change.
 * undefined when the field is not in the catalog.
 */
function fieldChange(prng: Prng, leadId: number, at: number): Omit<Activity, "id"> | undefined {
  const name = prng.pick(CHANGE_FIELDS);
  const field = LEAD_FIELDS.find((f) => f.name === name);
  if (!field) return undefined;
  // A score change drew its score here before the values were settled from the leads; the draw stays so
  // the rest of the seeded log is what it was.
  if (name === "leadScore") prng.int(0, 120);
  return {
    leadId,
    at,
    activityTypeId: 13,
    primaryAttributeValueId: field.id,
    primaryAttributeValue: field.displayName,
    attributes: [
      { name: "New Value", value: "" },
      { name: "Old Value", value: "" },
      { name: "Reason", value: "Changed by smart campaign" },
      { name: "Source", value: "Marketo Flow Action" },
    ],
    change: { fieldId: field.id, field: field.name, oldValue: null, newValue: null },
  };
}

/** Seeds about 4 activities per lead, all in (now - 60 days, now). */
export function seedActivities(prng: Prng, world: World, now: number): void {
  const start = now - ACTIVITY_WINDOW_MS;
  const leadIds = [...world.leads.keys()];
  const emails = world.emails;
  const campaignIds = world.campaigns.map((c) => c.id);
  const when = () => start + prng.int(0, ACTIVITY_WINDOW_MS - 3 * 3_600_000);
  const contactForm = world.assets.forms.find((f) => f.name === CONTACT_FORM);
  if (!contactForm)
    throw new Error(`The seeded forms hold no "${CONTACT_FORM}" form: seed it in assets/seed.ts`);
  const out = newLeads(world, start);
  const events = leadIds.length * 2;
  for (let i = 0; i < events && leadIds.length > 0; i++) {
    const leadId = prng.pick(leadIds);
    const roll = prng.next();
    const at = when();
    if (roll < 0.45) {
      out.push(pageVisit(prng, leadId, at));
    } else if (roll < 0.52) {
      out.push(formFill(prng, contactForm, leadId, at));
    } else if (roll < 0.85 && emails.length > 0 && campaignIds.length > 0) {
      emailChain(prng, out, leadId, prng.pick(emails), at, prng.pick(campaignIds));
    } else {
      const change = fieldChange(prng, leadId, at);
      if (change) out.push(change);
    }
  }
  out.sort((a, b) => a.at - b.at || a.leadId - b.leadId);
  for (const activity of out) {
    // Email chains can run a few hours past their send; nothing may be dated in the future.
    if (activity.at < now) world.activities.push({ ...activity, id: world.nextActivityId++ });
  }
}
