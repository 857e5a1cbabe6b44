import type { ErrorInfo } from "./api.ts";

/** A typed error: what went wrong, its hint (what to do next), and a way forward when one is known. */
export function Problem(props: { error: ErrorInfo }) {
  const { error } = props;
  const hint = error.hint && error.message.endsWith(error.hint) ? error.hint : undefined;
  const text = hint ? error.message.slice(0, -hint.length).trim() : error.message;
  return (
    <div className="problem" role="alert" data-code={error.error}>
      <p className="problem-message">{text}</p>
      {hint ? <p className="problem-hint">{hint}</p> : null}
      {error.connection === "google" || error.error === "not_configured" ? (
        <p>
          <a href="#/integrations">Open the integrations page</a>
        </p>
      ) : null}
    </div>
  );
}
