/** A task opened from another's result (a list's members after an add), run as it opens (TaskRunner.tsx). */
export interface TaskStart {
  values: Record<string, string>;
  /** The names of the objects its values pick (a list's). */
  names: Record<string, string>;
  /** The leads the task before it added (a list's members after an add): shown first. */
  marked?: string[];
}
