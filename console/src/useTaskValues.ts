/**
 * A task form's values (TaskRunner.tsx): as typed, each starting as its field's `initial` or as the task
 * was opened with (another task's result offers it, TaskStart), with the names and list details of the
 * objects picked by name.
 */
import { useEffect, useState } from "react";
import type { TaskView } from "../../src/tools/tasks.ts";
import type { TaskStart } from "./task-start.ts";

type Values = Record<string, string>;

const initialValues = (task: TaskView): Values =>
  Object.fromEntries(task.fields.flatMap((field) => (field.initial ? [[field.name, field.initial]] : [])));

/** The values typed, with the names and list details of the objects picked by name. */
export function useTaskValues(task: TaskView, opened: TaskStart | undefined) {
  const [values, setValues] = useState<Values>(() => ({ ...initialValues(task), ...opened?.values }));
  // The names of the objects picked by name (a list, a campaign), by field: the result says them.
  const [names, setNames] = useState<Values>(() => opened?.names ?? {});
  // What the list said of each picked object ("cannot be requested: …"): a trigger is refused on it.
  const [details, setDetails] = useState<Values>({});
  const set = (name: string, value: string, picked?: string, detail?: string) => {
    setValues((now) => ({ ...now, [name]: value }));
    if (picked !== undefined) setNames((now) => ({ ...now, [name]: picked }));
    setDetails((now) => ({ ...now, [name]: detail ?? "" }));
  };
  return { values, names, details, set };
}

/** Opened from a result with its values (`opened`): it runs at once, as the result's button said. */
export function useRunOnOpen(opened: TaskStart | undefined, run: () => Promise<void>) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, with the values it opened with
  useEffect(() => {
    if (opened) void run();
  }, []);
}
