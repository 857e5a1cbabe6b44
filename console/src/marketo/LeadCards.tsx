/** Find a lead's result as one card a lead (console/src/lead-card.ts): labels beside values, stacked on a phone. */
import { useEffect, useState } from "react";
import type { NamedField } from "../filter-names.ts";
import { leadFacts } from "./lead-card.ts";
import { marketoLeadFields } from "./lead-fields.ts";

type Row = Record<string, unknown>;

export function LeadCards(props: { leads: Row[]; fields: readonly NamedField[] }) {
  return (
    <ul className="lead-cards" aria-label="Leads found">
      {props.leads.map((lead, index) => {
        const facts = leadFacts(lead, props.fields);
        const name = facts[0]?.text ?? `Lead ${index + 1}`;
        return (
          <li key={String(lead.id ?? index)}>
            <article className="lead-card" aria-label={name}>
              <dl>
                {facts.map((fact) => (
                  <div key={fact.label} className="fact">
                    <dt>{fact.label}</dt>
                    <dd>{fact.text}</dd>
                  </div>
                ))}
              </dl>
            </article>
          </li>
        );
      })}
    </ul>
  );
}

/** The connection's lead fields by display name, and whether the read has ended (none while reading, or when they cannot be read). */
export interface LeadFields {
  fields: readonly NamedField[];
  /** The read has ended, with the fields or without them: what is shown by field name can be shown now. */
  settled: boolean;
}

/**
 * The lead fields, read once a result needs them. A result shown before they arrive would name its columns
 * by API name and then change under the reader (CI, stop 34: a CSV preview read "Email → Email" for
 * "Email → Email Address"), so callers wait for `settled`.
 */
export function useLeadFields(step: string, wanted: boolean): LeadFields {
  const [state, setState] = useState<LeadFields>({ fields: [], settled: false });
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    marketoLeadFields(step).then(
      (read) => live && setState({ fields: read, settled: true }),
      () => live && setState({ fields: [], settled: true }),
    );
    return () => {
      live = false;
    };
  }, [step, wanted]);
  return state;
}

/** Said where a result waits for the field names. */
export function ReadingFieldNames() {
  return (
    <p className="reading" role="status">
      Reading the field names…
    </p>
  );
}
