/**
 * Asks before a campaign is requested (trial C08-3): a trigger sends the campaign's flow (an email, say)
 * to real people and cannot be taken back, so nothing is sent until the person confirms, with the
 * campaign and each lead by name and email (one Get Leads by id read; a lead it cannot read keeps its id).
 */
import { useEffect, useState } from "react";
import { leadName } from "./marketo-words.ts";
import { readLeads, requestedIds } from "./useTriggeredLeads.ts";

export function ConfirmTrigger(props: {
  step: string;
  input: Record<string, unknown>;
  campaign: string;
  /** What the picker said of the campaign: "cannot be requested: why" refuses it, nothing offered. */
  detail?: string | undefined;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { step, input, campaign } = props;
  const refused = /^cannot be requested/i.test(props.detail ?? "") ? props.detail : undefined;
  const ids = requestedIds(input);
  const [names, setNames] = useState<string[]>(() => ids.map((id) => `lead ${id}`));
  useEffect(() => {
    if (refused) return;
    const controller = new AbortController();
    const wanted = requestedIds(input);
    readLeads(step, wanted, controller.signal).then(
      (found) => setNames(wanted.map((id) => leadName(found.get(id) ?? { id }))),
      () => undefined,
    );
    return () => controller.abort();
  }, [step, input, refused]);
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
      <div className="actions">
        <button type="button" onClick={props.onConfirm}>
          Confirm
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}
