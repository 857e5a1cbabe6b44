import { lazy, Suspense, useEffect, useState } from "react";
import { api } from "./api.ts";
import type { StepExample } from "./StepForm.tsx";

// The form library loads with the first step chosen, not with the page.
const StepRunner = lazy(() => import("./StepRunner.tsx").then((module) => ({ default: module.StepRunner })));

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
}

const SERVICES: Record<string, string> = {
  marketo: "Adobe Marketo Engage",
  google_analytics: "Google Analytics 4",
};

/** The tool-step bar: the catalog search (the same index as searchToolSteps), then the chosen step. */
export function StepBar() {
  const [query, setQuery] = useState("");
  const [steps, setSteps] = useState<StepSummary[]>([]);
  const [chosen, setChosen] = useState<StepSummary | undefined>();
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api<{ steps: StepSummary[] }>("GET", `/console/api/steps?q=${encodeURIComponent(query)}`).then(
        (found) => {
          if (!controller.signal.aborted) setSteps(found.steps);
        },
        () => undefined,
      );
    }, 150);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [query]);

  return (
    <div className="step-bar">
      <h1 className="screen-title">Tool steps</h1>
      <section className="search" aria-label="Tool steps">
        <label htmlFor="step-search">Search tool steps</label>
        <input
          id="step-search"
          type="search"
          placeholder="marketing automation, analytics, leads, report…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <ul className="hits" aria-label="Search results">
          {steps.map((step) => (
            <li key={step.id}>
              <button
                type="button"
                className={chosen?.id === step.id ? "hit chosen" : "hit"}
                onClick={() => setChosen(step)}
              >
                <span className="hit-title">{step.title}</span>
                <span className="hit-meta">
                  {SERVICES[step.service] ?? step.service} · {step.category}
                </span>
                <span className="hit-summary">{step.summary}</span>
              </button>
            </li>
          ))}
          {steps.length === 0 ? <li className="none">No tool step matches.</li> : null}
        </ul>
      </section>
      {chosen ? (
        <Suspense fallback={<p className="loading">Loading the form…</p>}>
          <StepRunner key={chosen.id} step={chosen} />
        </Suspense>
      ) : (
        <p className="hint">Choose a tool step to fill in its form.</p>
      )}
    </div>
  );
}
