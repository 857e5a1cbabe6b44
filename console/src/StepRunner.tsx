// Only the precompiled half of the validator package: the rest would bring ajv's compiler (eval).
import createPrecompiledValidator from "@rjsf/validator-ajv8/lib/createPrecompiledValidator.js";
import { useEffect, useRef, useState } from "react";
import {
  cancelRun,
  type ErrorInfo,
  type ProgressEvent,
  type RunResult,
  type RunStopped,
  runStep,
} from "./api.ts";
import { Problem } from "./Problem.tsx";
import { Results } from "./Results.tsx";
import type { StepSummary } from "./StepBar.tsx";
import {
  type FormModule,
  type Input,
  inputProblem,
  type LoadedForm,
  normalised,
  StepForm,
} from "./StepForm.tsx";
import { announceRun } from "./useRefresh.ts";

/** A run in progress: its fetch (aborted if the server cannot be asked) and, once started, its id. */
type Running = { controller: AbortController; run?: string };

let loads = 0;

/** A step's form (rendered from its JSON Schema), its run with progress and Cancel, and its result. */
export function StepRunner(props: { step: StepSummary }) {
  const { step } = props;
  const [formData, setFormData] = useState<Input>({});
  const [problem, setProblem] = useState<ErrorInfo | undefined>();
  const form = useStepForm(step.id, setProblem);
  const [progress, setProgress] = useState<ProgressEvent | undefined>();
  const [result, setResult] = useState<RunResult | RunStopped | undefined>();
  const [running, setRunning] = useState<Running | undefined>();
  // rjsf's Form skips re-rendering when its props are deeply equal, functions aside: the Cancel button's
  // handler may be an old one, so it reads the run from here rather than from its closure.
  const runningNow = useRef<Running | undefined>(undefined);
  runningNow.current = running;
  const lastInput = useRef<Input>({});
  // Leaving the step (another step, Integrations) drops its run: nobody would see its result, and it
  // would go on spending the workspace's API quota (the server stops a run whose request is dropped).
  useEffect(() => () => runningNow.current?.controller.abort(), []);

  const run = async (data: Input) => {
    if (!form) return;
    const input = normalised(form, data);
    setResult(undefined);
    setProgress(undefined);
    const invalid = inputProblem(form, input, data);
    if (invalid) {
      setProblem(invalid);
      return;
    }
    setProblem(undefined);
    lastInput.current = input;
    const current: Running = { controller: new AbortController() };
    setRunning(current);
    try {
      for await (const event of runStep(step.id, input, current.controller.signal)) {
        if (event.type === "started") setRunning({ ...current, run: event.run });
        // A wait between pages reports the count without the total: keep the total known so far.
        else if (event.type === "progress")
          setProgress((last) => ({ ...event, total: event.total ?? last?.total }));
        else if (event.type === "result" || event.type === "stopped") setResult(event);
        else setProblem(event.error);
      }
    } catch (error) {
      setProblem(
        current.controller.signal.aborted
          ? { error: "cancelled", message: `${step.title} was cancelled.` }
          : { error: "network_error", message: (error as Error).message },
      );
    } finally {
      setRunning(undefined);
      setProgress(undefined);
      announceRun();
    }
  };

  return (
    <section className="runner" aria-label={step.title}>
      <StepIntro step={step} />
      {form ? (
        <StepForm
          form={form}
          examples={step.examples}
          formData={formData}
          problem={problem}
          running={running}
          onChange={setFormData}
          onProblem={setProblem}
          onSubmit={(data) => void run(data)}
          onCancel={() => runningNow.current && cancel(runningNow.current)}
        />
      ) : problem ? null : (
        <p className="loading">Loading the form…</p>
      )}
      {running ? <RunProgress progress={progress} /> : null}
      {problem ? <Problem error={problem} /> : null}
      {result ? <Results result={result} stepId={step.id} input={lastInput.current} /> : null}
    </section>
  );
}

/** The step's form module, loaded from the server (with its validators precompiled there). */
function useStepForm(stepId: string, setProblem: (problem: ErrorInfo) => void): LoadedForm | undefined {
  const [form, setForm] = useState<LoadedForm | undefined>();
  useEffect(() => {
    // A new URL each time: the module carries this workspace's accounts, which may have changed.
    loads += 1;
    import(/* @vite-ignore */ `/console/api/steps/${stepId}/form.js?load=${loads}`).then(
      (module: FormModule) =>
        setForm({ module, validator: createPrecompiledValidator(module.validators, module.schema) }),
      (error: Error) =>
        setProblem({ error: "load_failed", message: `The form could not be loaded: ${error.message}` }),
    );
  }, [stepId, setProblem]);
  return form;
}

/** The run's progress bar (indeterminate until a total is known) and its last message. */
function RunProgress({ progress }: { progress: ProgressEvent | undefined }) {
  return (
    <div className="progress" role="status">
      <progress value={progress?.total ? progress.progress : undefined} max={progress?.total} />
      <span>{progress?.message ?? "Running…"}</span>
    </div>
  );
}

/** The step's title, description and reference link. */
function StepIntro({ step }: { step: StepSummary }) {
  return (
    <>
      <h2>{step.title}</h2>
      <p className="description">
        {step.description}{" "}
        <a href={step.docUrl} target="_blank" rel="noreferrer noopener">
          Reference
        </a>
      </p>
    </>
  );
}

/**
 * Cancel asks the server to stop the run, which then ends with the records read so far; before the run
 * has its id, or when the server cannot be asked, the request is dropped (which stops the run too).
 */
function cancel(running: Running): void {
  if (running.run) cancelRun(running.run).catch(() => running.controller.abort());
  else running.controller.abort();
}
