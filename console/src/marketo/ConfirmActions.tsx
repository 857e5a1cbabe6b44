/**
 * The buttons under a question asked before a write (a trigger, an upsert): Confirm, when there is
 * something to confirm yet, and Cancel, drawn quieter (outlined) than Confirm. The question is scrolled into
 * view as it appears, and again when its words change (the leads' names read after it came, a line longer
 * at 400 px): at 400 px with the REST call open it came below the screen, after Run, and nothing showed that
 * a question waited (console review s13, finding 11).
 */
import { useEffect, useRef } from "react";

export function ConfirmActions(props: {
  /** Absent while what is confirmed is still being read: only Cancel then. */
  onConfirm?: (() => void) | undefined;
  disabled?: boolean;
  onCancel: () => void;
  /** The question's words: the buttons come in view again when they change. */
  question?: string;
}) {
  const actions = useRef<HTMLDivElement>(null);
  const { question } = props;
  useEffect(() => {
    if (question !== "") actions.current?.scrollIntoView({ block: "nearest" });
  }, [question]);
  return (
    <div className="actions" ref={actions}>
      {props.onConfirm ? (
        <button type="button" onClick={props.onConfirm} disabled={props.disabled}>
          Confirm
        </button>
      ) : null}
      <button type="button" className="quiet" onClick={props.onCancel}>
        Cancel
      </button>
    </div>
  );
}
