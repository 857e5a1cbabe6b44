/**
 * What a marketer may ask of Marketo that no task does, answered in the bar beside the hits (trial s5,
 * finding 9: "edit email subject line" found only the REST form). Email content and subject are edited in
 * Marketo's Design Studio (or the email inside its program) and approved there; the Asset API's Update
 * Email Content (POST /rest/asset/v1/email/{id}/content.json) changes only a draft, which still needs
 * approving (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/emails).
 * What the tool reads: Get Email by Id (GET /rest/asset/v1/email/{id}.json) and the send, open and click
 * activities of the lead database (activity types 6, 10, 11; Get Lead Activities,
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/activities).
 */
import type { StepAnswer } from "../tasks.js";

// An email, not a lead's email address ("change a lead's email address" is a lead's field).
const EMAIL = String.raw`\b(?:e-?mails?|newsletters?)\b(?!\s+address)`;
const EDIT = String.raw`\b(?:edit|change|rewrite|modify|fix|correct|update)\w*\b`;

export const MARKETO_ANSWERS: readonly StepAnswer[] = [
  {
    id: "edit_email",
    title: "Editing an email",
    patterns: [new RegExp(`${EDIT}.*${EMAIL}`, "i"), new RegExp(`${EMAIL}.*${EDIT}`, "i")],
    words:
      "An email's subject and content are edited in Marketo itself: Design Studio → Emails, or the email " +
      "inside its program, then approved there. Here you can read an email's details (subject, sender, " +
      "status) and how it did (sends, opens and clicks), with the Marketo form listed below.",
    search: "marketo",
  },
];
