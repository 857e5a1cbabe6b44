/**
 * A lead as a record a marketer reads (trial s5, finding 3: Find a lead showed `id | email | updatedAt |
 * createdAt | firstName | lastName` and 2025-01-03T14:47:53Z): labels by the connection's own display
 * names (Describe Lead2, console/src/marketo/lead-fields.ts), plain words where it has none, and dates as
 * "3 Jan 2025, 14:47 UTC". The values stay as Marketo sent them everywhere a program reads them (the
 * CSV and JSON downloads).
 */
import type { NamedField } from "../filter-names.js";
import { timeWords } from "../time-words.js";

type Row = Record<string, unknown>;

/** The card's facts, in order: Name is the first and last name together; the rest are fields. */
export const CARD_FACTS: readonly { field: string; label: string }[] = [
  { field: "email", label: "Email" },
  { field: "company", label: "Company" },
  { field: "leadScore", label: "Lead Score" },
  { field: "leadSource", label: "Lead Source" },
  { field: "createdAt", label: "Created" },
  { field: "updatedAt", label: "Updated" },
];

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * A time Marketo sends (ISO 8601) as people read it, "3 Jan 2025, 14:47 UTC", or in the `zone` an export's
 * days were read in ("3 Jan 2025, 09:47 America/New_York"); anything else as it is.
 */
export function readableTime(value: unknown, zone = "UTC"): unknown {
  if (typeof value !== "string" || !ISO_TIME.test(value)) return value;
  return timeWords(value, zone);
}

/** A field's label: the connection's display name, else `fallback`, else the field's own name. */
export function fieldTitle(fields: readonly NamedField[], api: string, fallback?: string): string {
  return fields.find((field) => field.api === api)?.ui ?? fallback ?? api;
}

/** The facts of one lead as label and text, in the card's order; a fact the lead lacks is left out. */
export function leadFacts(lead: Row, fields: readonly NamedField[]): { label: string; text: string }[] {
  const text = (value: unknown) =>
    value === undefined || value === null || value === "" ? "" : String(readableTime(value));
  const name = [text(lead.firstName), text(lead.lastName)].filter(Boolean).join(" ");
  const facts = CARD_FACTS.map((fact) => ({
    label: fieldTitle(fields, fact.field, fact.label),
    text: text(lead[fact.field]),
  }));
  return [{ label: "Name", text: name }, ...facts].filter((fact) => fact.text !== "");
}
