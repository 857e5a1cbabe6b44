/**
 * Asks before a campaign is requested (trial C08-3): a trigger sends the campaign's flow (an email, say)
 * to real people and cannot be taken back, so nothing is sent until the person confirms, with the
 * campaign and each lead by name and email (one Get Leads by id read of those not read already, none when
 * they were typed as emails; a lead it cannot read keeps its id). Confirm hands the leads read to the
 * result, which names them without reading them again.
 */

import { useEffect, useState } from "react";
import { ConfirmActions } from "./ConfirmActions.tsx";
import { type Lead, unknownEmails } from "./lead-emails.ts";
import { leadName } from "./marketo-words.ts";
import { readLeads, requestedIds } from "./useTriggeredLeads.ts";

export function ConfirmTrigger(props: {
  step: string;
  input: Record<string, unknown>;
  campaign: string;
  /** What the picker said of the campaign: "cannot be requested: why" refuses it, nothing offered. */
  detail?: string | undefined;
  /** The leads read already (typed as emails), by id. */
  known: ReadonlyMap<string, Lead>;
  /** Emails typed that no lead has: said, not sent. */
  unknown: readonly string[];
  onConfirm: (leads: Map<string, Lead>) => void;
  onCancel: () => void;
}) {
  const { step, input, campaign, known } = props;
  const refused = /^cannot be requested/i.test(props.detail ?? "") ? props.detail : undefined;
  const ids = requestedIds(input);
  const [found, setFound] = useState<Map<string, Lead>>(() => new Map(known));
  useEffect(() => {
    if (refused) return;
    const controller = new AbortController();
    readLeads(step, requestedIds(input), controller.signal, known).then(setFound, () => undefined);
    return () => controller.abort();
  }, [step, input, refused, known]);
  const names = ids.map((id) => (found.has(id) ? leadName(found.get(id) ?? { id }) : `lead ${id}`));
  const leads =
    names.length <= 1 ? (names[0] ?? "no lead") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  if (refused)
    return (
      <section className="confirm" role="alert" aria-label="Cannot be requested">
        <p>
          Campaign {campaign} {refused.replace(/^cannot be requested/i, "cannot be requested")}, so nothing
          was sent. Pick a campaign listed under "Can be requested".
        </p>
        <div className="actions">
          <button type="button" onClick={props.onCancel}>
            Close
          </button>
        </div>
      </section>
    );
  return (
    <section className="confirm" role="alertdialog" aria-label="Confirm the request">
      <p>
        Request campaign {campaign} for {leads}?
      </p>
      {props.unknown.length > 0 ? (
        <p className="field-note">
          {unknownEmails(props.unknown)}, so nothing is sent for {props.unknown.length === 1 ? "it" : "them"}.
        </p>
      ) : null}
      <ConfirmActions onConfirm={() => props.onConfirm(found)} onCancel={props.onCancel} question={leads} />
    </section>
  );
}
