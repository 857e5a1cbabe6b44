import { useEffect, useRef, useState } from "react";
import {
  cancelRun,
  type ErrorInfo,
  type ProgressEvent,
  type RunResult,
  type RunStopped,
  runStep,
} from "./api.ts";
import { announceRun } from "./useRefresh.ts";

/** A run in progress: its fetch (aborted if the server cannot be asked) and, once started, its id. */
export type Running = { controller: AbortController; run?: string };
type Input = Record<string, unknown>;

/**
 * A step's runs, for any form of it (the step's own, a task's): progress, Cancel, the result or problem,
 * and the input last run (the result's table reads its columns from it).
 */
export function useStepRun(step: { id: string; title: string }) {
  const [problem, setProblem] = useState<ErrorInfo | undefined>();
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

  const clear = () => {
    setResult(undefined);
    setProgress(undefined);
  };
  const start = async (input: Input) => {
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
  const cancel = () => {
    if (runningNow.current) stop(runningNow.current);
  };
  return { problem, setProblem, progress, result, running, lastInput, clear, start, cancel };
}

/**
 * Cancel asks the server to stop the run, which then ends with the records read so far; before the run
 * has its id, or when the server cannot be asked, the request is dropped (which stops the run too).
 */
function stop(running: Running): void {
  if (running.run) cancelRun(running.run).catch(() => running.controller.abort());
  else running.controller.abort();
}
