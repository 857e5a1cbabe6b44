/**
 * Names people know a Marketo lead field by besides the one the instance shows: each is taken wherever a
 * lead field is named (an export's columns and filter, a pasted CSV's header, the field to match on) and
 * heads the column of the person who typed it (console/src/column-names.ts headingFor).
 */
import type { NamedField } from "../filter-names.js";

/**
 * The standard fields' names people know that an instance may no longer show (trial s8, finding 4: "Lead
 * Source" was refused for Person Source). Marketo Engage renamed leads to people in its UI ("you may see
 * lead/leads in your subscription and person/people in our docs": Adobe, "Understanding Program
 * Membership", https://experienceleague.adobe.com/docs/marketo/using/product-docs/core-marketo-concepts/programs/creating-programs/understanding-program-membership.html),
 * and its field list still labels leadSource "Lead Source" (Adobe, "Standard Fields":
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/list-of-standard-fields),
 * while an instance's Describe Lead2 may answer "Person Source", as the UI shows it (the sandbox does, as
 * src/sandbox/marketo/lead-db/fields.ts). No Adobe page was found that names this one rename itself.
 */
export const FAMILIAR_NAMES: readonly NamedField[] = [{ api: "leadSource", ui: "Lead Source" }];

/**
 * The instance's fields, then each familiar name of a field it has, unless one of its own fields is named
 * so (a custom "Lead Source" is that field): its own names come first, so a label is always its own.
 */
export function withFamiliarNames(fields: readonly NamedField[]): NamedField[] {
  const taken = new Set(fields.map((field) => field.ui.toLowerCase()));
  const familiar = FAMILIAR_NAMES.filter(
    (name) => fields.some((field) => field.api === name.api) && !taken.has(name.ui.toLowerCase()),
  );
  return [...fields, ...familiar];
}
