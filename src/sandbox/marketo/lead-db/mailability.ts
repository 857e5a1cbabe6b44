/**
 * Whether a seeded lead can be emailed: Marketo's standard mailability fields, which every instance's leads
 * carry and which "how much of our database can we email?" reads (trials s7 N17 and s8 N29 found none here).
 * The REST names are those of a real instance's lead record as a Marketo source connector printed it (Confluent's
 * connector in vdesabou/kafka-docker-playground, connect/connect-marketo-source/README.md: emailInvalid,
 * emailInvalidCause, unsubscribedReason, marketingSuspended, marketingSuspendedCause, blackListed,
 * blackListedCause, emailSuspended, emailSuspendedCause, emailSuspendedAt); Describe Lead gives each field's
 * type (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads#describe).
 * Inferred (no published list of values): the display names ("Blocklisted" is the UI's word for blackListed),
 * the causes' wording, and the shares of leads in each state.
 *
 * Drawn from their own PRNG stream, so adding them left the other seeded values of a seed as they were.
 */
import type { Prng } from "../../prng.js";
import type { Lead, LeadField } from "../types.js";

const DAY_MS = 86_400_000;

const flag = (id: number, name: string, displayName: string): LeadField => ({
  id,
  name,
  displayName,
  dataType: "boolean",
  readOnly: false,
});
const text = (id: number, name: string, displayName: string): LeadField => ({
  id,
  name,
  displayName,
  dataType: "string",
  length: 255,
  readOnly: false,
});

/** The mailability fields of the lead schema (describe.json). */
export const MAILABILITY_FIELDS: readonly LeadField[] = [
  flag(21, "emailInvalid", "Email Invalid"),
  text(22, "emailInvalidCause", "Email Invalid Cause"),
  text(23, "unsubscribedReason", "Unsubscribed Reason"),
  flag(24, "marketingSuspended", "Marketing Suspended"),
  text(25, "marketingSuspendedCause", "Marketing Suspended Cause"),
  flag(26, "blackListed", "Blocklisted"),
  text(27, "blackListedCause", "Blocklisted Cause"),
  flag(28, "emailSuspended", "Email Suspended"),
  text(29, "emailSuspendedCause", "Email Suspended Cause"),
  {
    id: 30,
    name: "emailSuspendedAt",
    displayName: "Email Suspended At",
    dataType: "datetime",
    readOnly: false,
  },
];

const INVALID = ["550 5.1.1 User unknown", "550 5.4.1 Recipient address rejected", "Domain not found"];
const UNSUBSCRIBED = ["Unsubscribed via the link in an email", "Opted out on the preference page", null];
const SUSPENDED = ["452 4.2.2 Mailbox full", "421 Temporarily deferred"];

/** Sets each lead's mailability fields; `now` bounds a suspension's time to the last 30 days. */
export function seedMailability(prng: Prng, leads: Iterable<Lead>, now: number): void {
  for (const lead of leads) {
    const invalid = prng.chance(0.04);
    const suspended = !invalid && prng.chance(0.02);
    const marketingSuspended = prng.chance(0.01);
    const blocked = prng.chance(0.005);
    Object.assign(lead, {
      emailInvalid: invalid,
      emailInvalidCause: invalid ? prng.pick(INVALID) : null,
      unsubscribedReason: lead.unsubscribed === true ? prng.pick(UNSUBSCRIBED) : null,
      marketingSuspended,
      marketingSuspendedCause: marketingSuspended ? "Suspended by a marketer (spam complaint)" : null,
      blackListed: blocked,
      blackListedCause: blocked ? "Address on the instance's block list" : null,
      emailSuspended: suspended,
      emailSuspendedCause: suspended ? prng.pick(SUSPENDED) : null,
      emailSuspendedAt: suspended ? now - prng.int(1, 30 * DAY_MS) : null,
    });
  }
}
