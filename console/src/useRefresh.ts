/**
 * The integrations cards' counts (calls today, the rate window, the GA4 quota last seen) kept current
 * without a reload: a card reads its status again when a run or a Test ends on this page (`announceRun`),
 * and when the page is shown again (a run from another tab, the CLI or an MCP client in the meantime).
 */
import { useEffect, useRef } from "react";
import { type ApiError, api } from "./api.ts";

const RAN = "martech-steps:ran";

/** Says a call to a service ended (a step's run, a connection's Test): the cards read their counts again. */
export function announceRun(): void {
  window.dispatchEvent(new Event(RAN));
}

/** Calls `load` after each run on this page and each time the page becomes visible again. */
export function useRefresh(load: () => void): void {
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    const again = () => latest.current();
    const shown = () => {
      if (document.visibilityState === "visible") latest.current();
    };
    window.addEventListener(RAN, again);
    document.addEventListener("visibilitychange", shown);
    return () => {
      window.removeEventListener(RAN, again);
      document.removeEventListener("visibilitychange", shown);
    };
  }, []);
}

/**
 * A card's status read from `path`: `show` takes the first (it fills the card's form too), `refresh` each
 * later one after a run or when the page is shown again (the form's values, maybe being typed, stay).
 */
export function useStatus<T>(
  path: string,
  show: (status: T) => void,
  refresh: (status: T) => void,
  failed: (error: ApiError) => void,
): void {
  useEffect(() => {
    api<T>("GET", path).then(show, failed);
  }, [path, show, failed]);
  useRefresh(() => {
    api<T>("GET", path).then(refresh, () => undefined);
  });
}
