import { lazy, Suspense, useEffect, useRef, useState } from "react";
import type { AnswerView, TaskView } from "../../src/tools/tasks.ts";
import { api } from "./api.ts";
import type { StepExample } from "./StepForm.tsx";
import type { TaskStart } from "./task-start.ts";

// The form library loads with the first step chosen, not with the page.
const StepRunner = lazy(() => import("./StepRunner.tsx").then((module) => ({ default: module.StepRunner })));
const TaskRunner = lazy(() => import("./TaskRunner.tsx").then((module) => ({ default: module.TaskRunner })));

export interface StepSummary {
  id: string;
  title: string;
  service: string;
  category: string;
  summary: string;
  description: string;
  docUrl: string;
  connection: string;
  /** Ready inputs (the step's definition): one click fills the form. */
  examples: StepExample[];
  /** Why a step found by its own words answers the search ("Purchase revenue by Country"). */
  reason?: string;
  /** The input that reason reads as: choosing the hit opens the form filled so, as an example does. */
  start?: StepExample;
}

type Chosen =
  | { step: StepSummary; task?: undefined }
  | { task: TaskView; step?: undefined; start?: TaskStart | undefined };

interface Found {
  steps: StepSummary[];
  tasks: TaskView[];
  /** What the query asks that no step does, answered in words (the steps' own: src/tools/tasks.ts). */
  answers: AnswerView[];
  /** Each service's product name by its service id, as the connection rooms name it (src/console/steps.ts). */
  products: Readonly<Record<string, string>>;
  /** Whether any answer came yet: before it, the list says it is loading, not "No tool step matches." (console review s14, finding 13). */
  loaded: boolean;
}

/** The steps, tasks and answers the query finds, asked again 150 ms after the last keystroke. */
function useSearch(query: string) {
  const [found, setFound] = useState<Found>({
    steps: [],
    tasks: [],
    answers: [],
    products: {},
    loaded: false,
  });
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api<Partial<Omit<Found, "loaded">> & Pick<Found, "steps">>(
        "GET",
        `/console/api/steps?q=${encodeURIComponent(query)}`,
      ).then(
        (answer) => {
          if (controller.signal.aborted) return;
          const { steps, tasks = [], answers = [], products = {} } = answer;
          setFound({ steps, tasks, answers, products, loaded: true });
        },
        () => undefined,
      );
    }, 150);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [query]);
  return found;
}

/** On a phone the form starts below the whole list of hits (trial C02-2): a choice brings it into view. */
function useInView(chosen: Chosen | undefined) {
  const form = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const top = chosen ? form.current?.getBoundingClientRect().top : undefined;
    if (top !== undefined && (top < 0 || top > window.innerHeight / 2))
      form.current?.scrollIntoView({ block: "start" });
  }, [chosen]);
  return form;
}

/** What the query asks that no step does, each a card in words (none for most queries). */
function Answers(props: { answers: AnswerView[] }) {
  return (
    <div role="status">
      {props.answers.map((answer) => (
        <section key={`${answer.step}/${answer.id}`} className="answer" aria-label={answer.title}>
          <h2>{answer.title}</h2>
          <p>{answer.words}</p>
          {answer.link ? <a href={answer.link.href}>{answer.link.text}</a> : null}
        </section>
      ))}
    </div>
  );
}

/** The tasks a search found, each opening its form. */
function TaskHits(props: {
  tasks: TaskView[];
  products: Found["products"];
  chosen: Chosen | undefined;
  onChoose: (task: TaskView) => void;
}) {
  if (props.tasks.length === 0) return null;
  return (
    <ul className="hits tasks" aria-label="Tasks">
      {props.tasks.map((task) => (
        <li key={`${task.step}/${task.id}`}>
          <button
            type="button"
            className={props.chosen?.task === task ? "hit chosen" : "hit"}
            onClick={() => props.onChoose(task)}
          >
            <span className="hit-title">{task.title}</span>
            <span className="hit-meta">{props.products[task.service] ?? task.service} · Task</span>
            <span className="hit-summary">{task.summary}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Opens what the search may not have found: a task's step form, a task another's result offers. */
function useOpeners(steps: StepSummary[], tasks: TaskView[], setChosen: (chosen: Chosen) => void) {
  // A task's "REST form" is its step's form: the step may not be among the hits of this query.
  const openStep = async (task: TaskView) => {
    const step =
      steps.find((one) => one.id === task.step) ??
      (await api<{ steps: StepSummary[] }>("GET", "/console/api/steps?q=")).steps.find(
        (one) => one.id === task.step,
      );
    if (step) setChosen({ step });
  };
  // A task a result offers (a list's members after an add): it may not be among the hits of this query.
  const openTask = async (from: TaskView, id: string, start: TaskStart) => {
    const same = (one: TaskView) => one.step === from.step && one.id === id;
    const task =
      tasks.find(same) ??
      (await api<{ tasks?: TaskView[] }>("GET", "/console/api/steps?q=")).tasks?.find(same);
    if (task) setChosen({ task, start });
  };
  return { openStep, openTask };
}

/**
 * The tool-step bar: the catalog search (the same index as searchToolSteps) and the steps' tasks it
 * finds ("Find a lead"), then the chosen step's form or task's form.
 */
export function StepBar() {
  const [query, setQuery] = useState("");
  const { steps, tasks, answers, products, loaded } = useSearch(query);
  const [chosen, setChosen] = useState<Chosen | undefined>();
  const form = useInView(chosen);
  const { openStep, openTask } = useOpeners(steps, tasks, setChosen);

  return (
    <div className="step-bar">
      <h1 className="screen-title">Tool steps</h1>
      <section className="search" aria-label="Tool steps">
        <label htmlFor="step-search">Search tool steps</label>
        <input
          id="step-search"
          type="search"
          // Short enough for the box at 400 px and in the 1280 px sidebar (trial s5: cut at "…leads, re").
          placeholder="e.g. leads, report, email"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <Answers answers={answers} />
        <TaskHits
          tasks={tasks}
          products={products}
          chosen={chosen}
          onChoose={(task) => setChosen({ task })}
        />
        <ul className="hits" aria-label="Search results">
          {steps.map((step) => (
            <li key={step.id}>
              <button
                type="button"
                className={chosen?.step?.id === step.id ? "hit chosen" : "hit"}
                onClick={() => setChosen({ step })}
              >
                <span className="hit-title">{step.title}</span>
                <span className="hit-meta">
                  {products[step.service] ?? step.service} · {step.category}
                </span>
                {step.reason ? (
                  <span className="hit-reason">
                    {step.title}: {step.reason}
                  </span>
                ) : null}
                <span className="hit-summary">{step.summary}</span>
              </button>
            </li>
          ))}
          {!loaded ? <li className="none loading">Loading the tool steps…</li> : null}
          {loaded && steps.length === 0 && tasks.length === 0 && answers.length === 0 ? (
            <li className="none">No tool step matches.</li>
          ) : null}
        </ul>
      </section>
      <div ref={form} className="chosen-form">
        {chosen ? (
          <Suspense fallback={<p className="loading">Loading the form…</p>}>
            {chosen.step ? (
              <StepRunner key={`${chosen.step.id}/${chosen.step.reason ?? ""}`} step={chosen.step} />
            ) : (
              <TaskRunner
                key={`${chosen.task.step}/${chosen.task.id}`}
                task={chosen.task}
                start={chosen.start}
                onStepForm={() => void openStep(chosen.task)}
                onTask={(id, start) => void openTask(chosen.task, id, start)}
              />
            )}
          </Suspense>
        ) : (
          <p className="hint">Choose a tool step to fill in its form.</p>
        )}
      </div>
    </div>
  );
}
