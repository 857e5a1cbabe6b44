/**
 * The buttons under a question asked before a write (a trigger, an upsert): Confirm, when there is
 * something to confirm yet, and Cancel.
 */
export function ConfirmActions(props: {
  /** Absent while what is confirmed is still being read: only Cancel then. */
  onConfirm?: (() => void) | undefined;
  disabled?: boolean;
  onCancel: () => void;
}) {
  return (
    <div className="actions">
      {props.onConfirm ? (
        <button type="button" onClick={props.onConfirm} disabled={props.disabled}>
          Confirm
        </button>
      ) : null}
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </div>
  );
}
