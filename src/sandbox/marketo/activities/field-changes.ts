/**
 * The values of the seeded Change Data Value (13) activities. A change's "New Value" is the value the
 * field holds after it and its "Old Value" the one before, both plain field values: Adobe's Get Lead
 * Changes example reads `"newValue": "FirstName_6176", "oldValue": "FirstName_4914"` for firstName
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/activities,
 * "Data value changes"), and the Change Data Value flow step sets the field to the New Value it is given
 * (https://experienceleague.adobe.com/en/docs/marketo/using/product-docs/core-marketo-concepts/smart-campaigns/flow-actions/change-data-value).
 *
 * The log is drawn first (log.ts picks which field changes, when); the values are settled after, per
 * lead and field, backwards from the value the lead holds now: the last change's New Value is the
 * lead's current value, each change's Old Value is the New Value of the change before it, and the value
 * before the first change is drawn from the values the field takes in the seed (lead-db/fields.ts). The
 * seeded leads keep their values, so the leads API reads what the log ends with.
 */

import type { Prng } from "../../prng.js";
import { SEEDED_SCORES, SEEDED_VALUES } from "../lead-db/fields.js";
import type { Activity, LeadValue, World } from "../types.js";

const CHANGE_DATA_VALUE = 13;

/** The attribute text of a value, as the activities answer it ("" for an emptied field, as sync.ts logs). */
const text = (value: LeadValue): string => (value === null ? "" : String(value));

/** A value the field held before `after`, from the seed's values for it, never `after` itself. */
function valueBefore(prng: Prng, field: string, after: LeadValue): LeadValue {
  const values = SEEDED_VALUES[field];
  if (!values) {
    // Lead Score: any other score in the seed's range.
    const span = SEEDED_SCORES.max - SEEDED_SCORES.min;
    const score = SEEDED_SCORES.min + prng.int(0, span - 1);
    return typeof after === "number" && score >= after ? score + 1 : score;
  }
  return prng.pick(values.filter((v) => v !== null && v !== after));
}

function settle(activity: Activity, oldValue: LeadValue, newValue: LeadValue): void {
  if (!activity.change) return;
  activity.change = { ...activity.change, oldValue, newValue };
  activity.attributes = activity.attributes.map((attr) => {
    if (attr.name === "New Value") return { ...attr, value: text(newValue) };
    if (attr.name === "Old Value") return { ...attr, value: text(oldValue) };
    return attr;
  });
}

/** Settles the seeded log's Change Data Value activities (sorted by time) against the seeded leads. */
export function settleFieldChanges(prng: Prng, world: World): void {
  const chains = new Map<string, Activity[]>();
  for (const activity of world.activities) {
    if (activity.activityTypeId !== CHANGE_DATA_VALUE || !activity.change) continue;
    const key = `${activity.leadId}:${activity.change.field}`;
    const chain = chains.get(key);
    if (chain) chain.push(activity);
    else chains.set(key, [activity]);
  }
  for (const chain of chains.values()) {
    const first = chain[0] as Activity;
    const field = (first.change as NonNullable<Activity["change"]>).field;
    let after: LeadValue = world.leads.get(first.leadId)?.[field] ?? null;
    for (let i = chain.length - 1; i >= 0; i--) {
      const before = valueBefore(prng, field, after);
      settle(chain[i] as Activity, before, after);
      after = before;
    }
  }
}
