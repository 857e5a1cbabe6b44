/** A task opened from another's result (a list's members after an add), run as it opens (TaskRunner.tsx). */
export interface TaskStart {
  values: Record<string, string>;
  /** The names of the objects its values pick (a list's). */
  names: Record<string, string>;
  /** The leads the task before it added (a list's members after an add): shown first. */
  marked?: MarkedLead[];
}

/**
 * A lead an add named, by id, and whether it was on the list before the add: Marketo answers "added" for
 * those too, and the members then said "just added" of a lead the add had left as it was (console review
 * s14, finding 4).
 */
export interface MarkedLead {
  id: string;
  already: boolean;
}
