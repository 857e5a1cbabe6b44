/**
 * After leads are added to a list or removed from it, the way to check the change: a button that opens Show
 * list members on the same list and runs it (trial s9, finding 3: nothing showed a list's members).
 */
import type { TaskView } from "../../../src/tools/tasks.ts";
import type { RunResult, RunStopped } from "../api.ts";
import type { MarkedLead, TaskStart } from "../task-start.ts";
import { listChangeOf } from "./list-membership.ts";

/** After an add or remove, the way to check it: the list's members (trial s9, finding 3). */
export function ListMembersOffer(props: {
  task: TaskView;
  result: RunResult | RunStopped;
  input: Record<string, unknown>;
  /** `already`: the leads the page found on the list before the add (TaskRunner.tsx). */
  ran: { values: Record<string, string>; names: Record<string, string>; already: ReadonlySet<string> };
  onTask?: ((id: string, start: TaskStart) => void) | undefined;
}) {
  const { ran, onTask } = props;
  const list = ran.values.list;
  if (props.task.id !== "list_members" || props.result.type !== "result" || !list || !onTask) return null;
  const name = ran.names.list ?? list;
  // The leads of an add come first among the members (trial s10, finding 2); removed ones are not there.
  // Those on the list before are said so, not "just added" (console review s14, finding 4).
  const ids = props.input.method === "POST" ? (listChangeOf(props.input)?.ids ?? []) : [];
  const marked: MarkedLead[] = ids.map((id) => ({ id, already: ran.already.has(id) }));
  return (
    <p className="next-task">
      <button
        type="button"
        onClick={() => onTask("show_members", { values: { list }, names: { list: name }, marked })}
      >
        Show the members of {name}
      </button>
    </p>
  );
}
