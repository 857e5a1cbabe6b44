// Only the precompiled half of the validator package: the rest would bring ajv's compiler (eval).
import createPrecompiledValidator from "@rjsf/validator-ajv8/lib/createPrecompiledValidator.js";
import { useEffect, useRef, useState } from "react";
import type { ErrorInfo, ProgressEvent, RunResult, RunStopped } from "./api.ts";
import { stepIntro } from "./field-words.ts";
import { reportInApiNames } from "./google/report-names.ts";
import { restHeadline } from "./marketo/marketo-words.ts";
import { Problem } from "./Problem.tsx";
import { progressForPeople } from "./progress-words.ts";
import { Results } from "./Results.tsx";
import { restCallLines } from "./rest-call.ts";
import type { StepSummary } from "./StepBar.tsx";
import {
  type FormModule,
  type Input,
  inputProblem,
  type LoadedForm,
  normalised,
  StepForm,
} from "./StepForm.tsx";
import { useStepRun } from "./useStepRun.ts";

let loads = 0;

/** A step's form (rendered from its JSON Schema), its run with progress and Cancel, and its result. */
export function StepRunner(props: { step: StepSummary }) {
  const { step } = props;
  const [formData, setFormData] = useState<Input>({});
  const { problem, setProblem, progress, result, running, lastInput, clear, start, cancel } =
    useStepRun(step);
  const form = useStepForm(step.id, setProblem);
  const { section, afterRun } = useProblemInView(problem);

  const run = async (data: Input) => {
    if (!form) return;
    const input = normalised(form, data);
    clear();
    afterRun();
    const invalid = inputProblem(form, input, data);
    if (invalid) {
      setProblem(invalid);
      return;
    }
    // A filter typed with the names the pickers show runs with their API names.
    const named = step.id === "google_analytics_run_reports" ? await reportInApiNames(input) : { input };
    if (named.problem) {
      setProblem(named.problem);
      return;
    }
    await start(named.input);
  };

  return (
    <section ref={section} className="runner" aria-label={step.title}>
      <StepIntro step={step} />
      {form ? (
        <StepForm
          stepId={step.id}
          form={form}
          examples={step.examples}
          start={step.start}
          formData={formData}
          problem={problem}
          running={running}
          onChange={setFormData}
          onProblem={setProblem}
          onSubmit={(data) => void run(data)}
          onCancel={cancel}
        />
      ) : problem ? null : (
        <p className="loading">Loading the form…</p>
      )}
      {running ? <RunProgress progress={progress} /> : null}
      {problem ? <Problem error={problem} /> : null}
      {result ? (
        <Results
          result={result}
          stepId={step.id}
          input={lastInput.current}
          {...restWords(step, result, lastInput.current)}
        />
      ) : null}
    </section>
  );
}

/**
 * After Run, a refused input brings its first field in error into view (else the problem's own box): Run sits
 * below the form, and on a phone the period it refused was off-screen, so Run seemed to do nothing (trial s9,
 * finding 2). Only the problem a Run brought: the form's check while the person fixes it moves nothing.
 */
function useProblemInView(problem: ErrorInfo | undefined) {
  const section = useRef<HTMLElement>(null);
  const ran = useRef(false);
  useEffect(() => {
    if (!problem || !ran.current) return;
    ran.current = false;
    const first = section.current?.querySelector("form [aria-invalid='true'], form .has-error, .problem");
    first?.scrollIntoView({ block: "center" });
  }, [problem]);
  return {
    section,
    afterRun: () => {
      ran.current = true;
    },
  };
}

/**
 * A Marketo REST call's result headline in a person's words, the step's summary and the call under
 * Details; other steps' summaries are already written for people (src/console/run-results.ts).
 */
function restWords(step: StepSummary, result: RunResult | RunStopped, input: Input) {
  if (step.service !== "marketo" || result.type !== "result") return {};
  return { headline: restHeadline(input, result), call: restCallLines(input).join("\n") };
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

/** The run's progress bar (shared with the task forms) (indeterminate until a total is known) and its last message. */
export function RunProgress({ progress }: { progress: ProgressEvent | undefined }) {
  return (
    <div className="progress" role="status">
      <progress value={progress?.total ? progress.progress : undefined} max={progress?.total} />
      <span>{progress?.message ? progressForPeople(progress.message) : "Running…"}</span>
    </div>
  );
}

/** The step's title, description and reference link. */
function StepIntro({ step }: { step: StepSummary }) {
  return (
    <>
      <h2>{step.title}</h2>
      <p className="description">
        {stepIntro(step)}{" "}
        <a href={step.docUrl} target="_blank" rel="noreferrer noopener">
          Reference
        </a>
      </p>
    </>
  );
}
