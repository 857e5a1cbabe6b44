/**
 * A step's task as a form of its own (src/tools/tasks.ts): fields a person knows, the REST call they make
 * (the server builds it from the values, so the page never learns a service's paths), and its run through
 * the step like any other. Nothing here names a service.
 */
import { type FormEvent, useEffect, useRef, useState } from "react";
import type { TaskField, TaskView } from "../../src/tools/tasks.ts";
import { ApiError, api, type ErrorInfo, type RunResult, type RunStopped } from "./api.ts";
import { typedHeadings } from "./column-names.ts";
import { ConfirmTrigger } from "./marketo/ConfirmTrigger.tsx";
import { LeadCards, ReadingFieldNames, useLeadFields } from "./marketo/LeadCards.tsx";
import { LeadFieldsInput } from "./marketo/LeadFieldsInput.tsx";
import { ListMembersOffer } from "./marketo/ListMembersOffer.tsx";
import { fieldTitle, readableTime } from "./marketo/lead-card.ts";
import { type Lead, type Lookups, unknownEmails } from "./marketo/lead-emails.ts";
import { useListMembership } from "./marketo/list-membership.ts";
import { listRows } from "./marketo/list-rows.ts";
import { MemberSearch } from "./marketo/MemberSearch.tsx";
import { taskHeadline } from "./marketo/marketo-words.ts";
import { alreadyOnList, prepareTask } from "./marketo/task-prepare.ts";
import { UpsertConfirm } from "./marketo/UpsertConfirm.tsx";
import { notSent, upsertRows } from "./marketo/upsert-words.ts";
import { useTriggeredLeads } from "./marketo/useTriggeredLeads.ts";
import { Problem } from "./Problem.tsx";
import { Results } from "./Results.tsx";
import { restCallLines } from "./rest-call.ts";
import { RunProgress } from "./StepRunner.tsx";
import { fieldWords, TaskInput } from "./TaskFields.tsx";
import type { MarkedLead, TaskStart } from "./task-start.ts";
import { useStepRun } from "./useStepRun.ts";
import { useRunOnOpen, useTaskValues } from "./useTaskValues.ts";

type Values = Record<string, string>;
type Input = Record<string, unknown>;
/** What a run was asked with: the values as typed, the names picked, the leads read, the emails no lead has. */
interface Ran {
  values: Values;
  names: Values;
  leads: Map<string, Lead>;
  unknown: string[];
  /** The leads an add found on the list already (Member of List before the add). */
  already: Set<string>;
}

/** Whether a field is shown: always, or while another field holds one of its values. */
export const shownField = (field: Omit<TaskField, "initial">, values: Values) =>
  !field.when || field.when.values.includes(values[field.when.field] ?? "");

/** The step's input for the values, as the server builds it, or the problem it names. */
function buildInput(task: TaskView, values: Values): Promise<{ input: Input }> {
  const path = `/console/api/steps/${task.step}/tasks/${task.id}/input`;
  const shown = task.fields.filter((field) => shownField(field, values)).map((field) => field.name);
  return api("POST", path, { values: Object.fromEntries(shown.map((name) => [name, values[name] ?? ""])) });
}

/** The step's input for the values as typed: prepared (emails looked up, names mapped), then built. */
async function preparedInput(task: TaskView, values: Values, lookups: Lookups, signal: AbortSignal) {
  const ready = await prepareTask(task, values, signal, lookups);
  if (ready.problem) throw new ApiError(400, ready.problem);
  return { prepared: ready.prepared, ...(await buildInput(task, ready.prepared.values)) };
}

/** The REST call the values make, built again (debounced) after each change. */
function useCall(task: TaskView, values: Values, lookups: Lookups): { input?: Input; problem?: ErrorInfo } {
  const [call, setCall] = useState<{ input?: Input; problem?: ErrorInfo }>({});
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      preparedInput(task, values, lookups, new AbortController().signal).then(
        ({ input }) => live && setCall({ input }),
        (error: Error) =>
          live &&
          setCall({
            problem:
              error instanceof ApiError ? error.info : { error: "network_error", message: error.message },
          }),
      );
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [task, values, lookups]);
  return call;
}

/** A refusal naming a task's field says the field's title, as the form shows it ("Leads: give…"). */
function inTitles(task: TaskView, problem: ErrorInfo): ErrorInfo {
  const field = task.fields.find((one) => one.name === problem.field);
  if (!field) return problem;
  const words = fieldWords(problem, field.name);
  const hint = problem.hint && problem.message.endsWith(problem.hint) ? ` ${problem.hint}` : "";
  const message = `${field.title}: ${words.charAt(0).toLowerCase()}${words.slice(1)}${hint}`;
  return { ...problem, message, fieldWords: words };
}

/** A failed run's problem: a refusal under its field's title, else what the network said. */
const asProblem = (task: TaskView, error: unknown): ErrorInfo =>
  error instanceof ApiError
    ? inTitles(task, error.info)
    : { error: "network_error", message: (error as Error).message };

interface TaskRunnerProps {
  task: TaskView;
  onStepForm: () => void;
  /** The values it opens with, from another task's result; it runs as it opens. */
  start?: TaskStart | undefined;
  /** Opens another task from this one's result. */
  onTask?: (id: string, start: TaskStart) => void;
}

export function TaskRunner(props: TaskRunnerProps) {
  const { task } = props;
  const { values, names, details, set } = useTaskValues(task, props.start);
  const ran = useRef<Ran>({ values, names, leads: new Map(), unknown: [], already: new Set() });
  const { problem, setProblem, progress, result, running, lastInput, clear, start, cancel } = useStepRun({
    id: task.step,
    title: task.title,
  });
  // The form's reads of leads by email: its preview and its Run ask once for the same emails.
  const lookups = useRef<Lookups>(new Map()).current;
  const call = useCall(task, values, lookups);
  // A campaign trigger waits here for Confirm: nothing is sent before.
  const [pending, setPending] = useState<Input | undefined>();
  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    clear();
    const signal = new AbortController().signal;
    try {
      const { prepared, input } = await preparedInput(task, values, lookups, signal);
      const already = await alreadyOnList(task, input, signal).catch(() => new Set<string>());
      // The headline says the values as typed (a filter with display names, emails).
      ran.current = { ...prepared, values, names, already };
      // A campaign trigger and a write of leads wait for Confirm.
      if (task.id === "trigger_campaign" || task.id === "upsert_leads") setPending(input);
      else await start(input);
    } catch (error) {
      setProblem(asProblem(task, error));
    }
  };
  useRunOnOpen(props.start, submit);
  const change = (name: string, value: string, picked?: string, detail?: string) => {
    set(name, value, picked, detail);
    // A question about other values no longer holds.
    setPending(undefined);
    // A field's error goes as soon as it is changed.
    if (problem?.field === name) setProblem(undefined);
  };
  const shown = { task, input: lastInput.current, ran: ran.current, onTask: props.onTask };
  return (
    <section className="runner task" aria-label={task.title}>
      <TaskHeading task={task} onStepForm={props.onStepForm} />
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TaskFieldList
          task={task}
          values={values}
          problem={problem}
          disabled={running !== undefined}
          onChange={change}
        />
        <RestCall input={call.input} />
        <RunActions running={running !== undefined} onCancel={cancel} />
      </form>
      {pending ? (
        <AskFirst
          task={task}
          input={pending}
          values={values}
          campaign={names.campaign ?? values.campaign ?? ""}
          detail={details.campaign}
          ran={ran.current}
          onConfirm={(leads) => {
            // The leads the confirm read name the result's rows: not read again.
            if (leads) ran.current = { ...ran.current, leads };
            // Gone before the run starts: a second click cannot send it twice.
            setPending(undefined);
            void start(pending);
          }}
          onCancel={() => setPending(undefined)}
        />
      ) : null}
      {running ? <RunProgress progress={progress} /> : null}
      {problem ? <Problem error={problem} /> : null}
      {result ? <TaskResult {...shown} result={result} marked={props.start?.marked} /> : null}
    </section>
  );
}

/** What a run waits for before it writes: a write of leads' preview, or a campaign trigger's question. */
function AskFirst(props: {
  task: TaskView;
  input: Input;
  values: Values;
  campaign: string;
  detail: string | undefined;
  ran: Ran;
  onConfirm: (leads?: Map<string, Lead>) => void;
  onCancel: () => void;
}) {
  const { task, input, ran } = props;
  if (task.id === "upsert_leads")
    return (
      <UpsertConfirm
        step={task.step}
        csv={props.values.csv ?? ""}
        input={input}
        onConfirm={() => props.onConfirm()}
        onCancel={props.onCancel}
      />
    );
  return (
    <ConfirmTrigger
      step={task.step}
      input={input}
      campaign={props.campaign}
      detail={props.detail}
      known={ran.leads}
      unknown={ran.unknown}
      onConfirm={props.onConfirm}
      onCancel={props.onCancel}
    />
  );
}

/** The task's fields shown for the values, each with its error after a refused run. */
function TaskFieldList(props: {
  task: TaskView;
  values: Values;
  problem: ErrorInfo | undefined;
  disabled: boolean;
  onChange: (name: string, value: string, picked?: string, detail?: string) => void;
}) {
  const { task, values, problem } = props;
  return task.fields
    .filter((field) => shownField(field, values))
    .map((field) => {
      const shared = {
        task,
        field,
        value: values[field.name] ?? "",
        error: problem?.field === field.name ? problem : undefined,
        disabled: props.disabled,
      };
      // An export's columns are picked from the instance's lead fields (console review s10, finding 8).
      if (task.id === "export" && field.name === "fields")
        return (
          <LeadFieldsInput
            key={field.name}
            {...shared}
            onChange={(value) => props.onChange(field.name, value)}
          />
        );
      return (
        <TaskInput
          key={field.name}
          {...shared}
          onChange={(value, picked, detail) => props.onChange(field.name, value, picked, detail)}
        />
      );
    });
}

/** The task's title and what it does, with the way to its step's REST form. */
function TaskHeading(props: { task: TaskView; onStepForm: () => void }) {
  const { task } = props;
  return (
    <>
      <h2>{task.title}</h2>
      <p className="description">
        {task.summary}{" "}
        <button type="button" className="link" onClick={props.onStepForm}>
          Open the REST form instead
        </button>
      </p>
    </>
  );
}

/** Run, and Cancel while the run goes on. */
function RunActions(props: { running: boolean; onCancel: () => void }) {
  return (
    <div className="actions">
      <button type="submit" disabled={props.running}>
        Run
      </button>
      {props.running ? (
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      ) : null}
    </div>
  );
}

const NONE: MarkedLead[] = [];

/** The tasks whose results are lead records (an export of activities aside). */
const LEAD_RECORDS = new Set(["find_lead", "show_members", "export", "upsert_leads"]);

/** A task's result: a headline in the task's words, the step's own summary and REST call under Details. */
function TaskResult(props: {
  task: TaskView;
  result: RunResult | RunStopped;
  input: Input;
  ran: Ran;
  onTask?: ((id: string, start: TaskStart) => void) | undefined;
  /** The leads the task before added, shown first among a list's members. */
  marked?: MarkedLead[] | undefined;
}) {
  const { task, result, input, ran } = props;
  const campaign = ran.names.campaign ?? ran.values.campaign ?? "";
  const triggered = useTriggeredLeads(
    task.step,
    task.id === "trigger_campaign" ? result : undefined,
    input,
    campaign,
    ran.leads,
  );
  const members = useListMembership(task.step, task.id === "list_members" ? result : undefined, input);
  // Lead records (found, exported, written) are headed by the connection's display names (finding 3).
  const leadRecords = LEAD_RECORDS.has(task.id) && ran.values.what !== "activities";
  const { fields, settled } = useLeadFields(task.step, leadRecords);
  if (leadRecords && !settled) return <ReadingFieldNames />;
  const csv = ran.values.csv ?? "";
  const left = task.id === "upsert_leads" ? notSent(csv, input, fields) : 0;
  const said =
    result.type === "result"
      ? taskHeadline(task.id, ran.values, ran.names, result, input, ran.already, left)
      : undefined;
  const headline =
    said && ran.unknown.length > 0
      ? `${said} ${unknownEmails(ran.unknown)}, so ${ran.unknown.length === 1 ? "it was" : "they were"} left out.`
      : said;
  const rows =
    triggered ??
    (task.id === "list_members"
      ? listRows(result, ran.leads, ran.already, members ?? "unread")
      : task.id === "upsert_leads"
        ? upsertRows(result, input, csv, fields)
        : undefined);
  // Times in the zone the period's days were read in, as the headline names it (UTC when none was).
  const zone = (task.id === "export" && ran.values.zone?.trim()) || "UTC";
  // An export's columns are headed by the names typed ("Lead Source", not the instance's "Person Source").
  const headings = task.id === "export" ? typedHeadings(ran.values.fields ?? "", fields) : undefined;
  const title = leadRecords
    ? (column: string) => headings?.get(column) ?? fieldTitle(fields, column)
    : undefined;
  const format = leadRecords ? (_column: string, value: unknown) => readableTime(value, zone) : undefined;
  return (
    <>
      <Results
        result={result}
        stepId={task.step}
        input={input}
        headline={headline}
        call={restCallLines(input).join("\n")}
        rows={rows}
        title={title}
        format={format}
        recordErrors={task.id !== "upsert_leads"}
        records={
          task.id === "find_lead"
            ? (leads) => <LeadCards leads={leads} fields={fields} />
            : task.id === "show_members"
              ? (leads) => (
                  <MemberSearch rows={leads} marked={props.marked ?? NONE} format={format} title={title} />
                )
              : undefined
        }
        recordsCounted={task.id === "show_members"}
        noun={leadRecords ? "leads" : task.id === "export" ? "activities" : undefined}
      />
      <ListMembersOffer task={task} result={result} input={input} ran={ran} onTask={props.onTask} />
    </>
  );
}

/**
 * The call the form makes, as its REST request (method, path and query, and its JSON body or file), then
 * what the step does with the answer (a filter, an export run to the end).
 */
function RestCall({ input }: { input: Input | undefined }) {
  if (!input) return null;
  const lines = restCallLines(input);
  const after = [
    input.run_to_completion ? "runs the export job to the end and reads its file" : undefined,
    typeof input.where === "string" ? `keeps the rows where ${input.where}` : undefined,
  ].filter(Boolean);
  return (
    // Closed until asked for (trial s9, finding 8): a marketer fills the form, the call is there to check.
    <details className="rest-call">
      <summary>Show the REST call</summary>
      {/* A long body scrolls in its own box, so reachable by keyboard too. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (axe scrollable-region-focusable) */}
      <pre tabIndex={0}>{lines.join("\n")}</pre>
      {after.length > 0 ? <p className="field-note">Then the step {after.join(", and ")}.</p> : null}
    </details>
  );
}
