/** Find a lead's result as one card a lead (console/src/lead-card.ts): labels beside values, stacked on a phone. */
import { useEffect, useState } from "react";
import type { NamedField } from "./filter-names.ts";
import { leadFacts } from "./lead-card.ts";
import { marketoLeadFields } from "./person-filters.ts";

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

/** The connection's lead fields by display name, once read (none while reading, or when they cannot be). */
export function useLeadFields(step: string, wanted: boolean): readonly NamedField[] {
  const [fields, setFields] = useState<readonly NamedField[]>([]);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    marketoLeadFields(step).then(
      (read) => live && setFields(read),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [step, wanted]);
  return fields;
}
