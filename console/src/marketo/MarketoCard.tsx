import { type FormEvent, useCallback, useState } from "react";
import type { CallRecord, MarketoUsage } from "../../../src/connectors/marketo/types.ts";
import { type ApiError, api, type ErrorInfo } from "../api.ts";
import { type ConfigField, FieldInput } from "../Integrations.tsx";
import { Problem } from "../Problem.tsx";
import { chipState, StatusChip } from "../StatusChip.tsx";
import { timeWords } from "../time-words.ts";
import { useAction } from "../useAction.ts";
import { useStatus } from "../useRefresh.ts";

interface Connection {
  clientId: string;
  restEndpoint: string;
  secretSet: boolean;
}

interface MarketoStatus {
  fields: ConfigField[];
  active: (Connection & { source: "environment" | "store"; sandbox: boolean }) | null;
  saved: Connection | null;
  usage: MarketoUsage | null;
  problem: string | null;
  lastTest: LastTest | null;
  /** The calls Marketo answered since this server started, and how the last one went. */
  calls: CallRecord | null;
}

interface LastTest {
  at: string;
  ok: boolean;
  message: string;
}

const fieldOf = (error: ErrorInfo | undefined): string | undefined =>
  typeof error?.field === "string" ? error.field : undefined;

/** Marketo: Client ID, write-only Client Secret, REST API Endpoint; Save (verified first), Test connection, Remove; usage. */
const EMPTY: Record<string, string> = { clientId: "", clientSecret: "", restEndpoint: "" };

export function MarketoCard() {
  const [status, setStatus] = useState<MarketoStatus | undefined>();
  const [values, setValues] = useState<Record<string, string>>(EMPTY);
  const { busy, error, setError, notice, setNotice, act } = useAction();
  // A test's technical line, under the notice's Details; another notice has none.
  const [detail, setDetail] = useState<string | undefined>();

  const show = useCallback((next: MarketoStatus) => {
    setStatus(next);
    setValues({
      clientId: next.saved?.clientId ?? "",
      clientSecret: "",
      restEndpoint: next.saved?.restEndpoint ?? "",
    });
  }, []);
  const failed = useCallback((e: ApiError) => setError(e.info), [setError]);
  useStatus<MarketoStatus>("/console/api/marketo", show, setStatus, failed);

  const save = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      show(await api<MarketoStatus>("POST", "/console/api/marketo", values));
      setNotice("Marketo accepted the credentials; they are saved (the secret encrypted at rest).");
      setDetail(undefined);
    });
  };
  // The values in the form are tested (the saved secret stands in for an empty secret field); empty fields test the connection in force.
  const test = () =>
    act(async () => {
      try {
        const tested = await api<{ message: string; detail?: string; lastTest: LastTest }>(
          "POST",
          "/console/api/marketo/test",
          values,
        );
        setNotice(tested.message);
        setDetail(tested.detail);
      } finally {
        const next = await api<MarketoStatus>("GET", "/console/api/marketo").catch(() => undefined);
        if (next) setStatus(next);
      }
    });
  const remove = () => {
    if (!window.confirm("Remove the saved Marketo connection of this workspace?")) return;
    void act(async () => {
      show(await api<MarketoStatus>("DELETE", "/console/api/marketo"));
      setNotice("The saved Marketo connection was removed.");
      setDetail(undefined);
    });
  };

  const active = status?.active;
  const usage = status?.usage;
  return (
    <section className="card" aria-label="Adobe Marketo Engage">
      <MarketoHeading status={status} />
      <ConnectionStatus active={active} hasSaved={Boolean(status?.saved)} />
      {active && !active.sandbox ? <Instance restEndpoint={active.restEndpoint} /> : null}
      {status?.calls ? <CallsLine calls={status.calls} /> : null}
      {usage ? <UsageList usage={usage} /> : null}
      {status?.lastTest ? <LastTestLine test={status.lastTest} /> : null}
      {status ? (
        <MarketoForm
          status={status}
          values={values}
          error={error}
          busy={busy}
          onValues={setValues}
          onSave={save}
          onTest={test}
          onRemove={remove}
        />
      ) : null}
      {notice ? <Notice notice={notice} detail={detail} /> : null}
      {error && !status?.fields.some((f) => f.key === fieldOf(error)) ? <Problem error={error} /> : null}
    </section>
  );
}

/** The connection's fields (the secret write-only) and its Save, Test connection and Remove. */
function MarketoForm(props: {
  status: MarketoStatus;
  values: Record<string, string>;
  error: ErrorInfo | undefined;
  busy: boolean;
  onValues: (values: Record<string, string>) => void;
  onSave: (event: FormEvent) => void;
  onTest: () => void;
  onRemove: () => void;
}) {
  const { status, values, error, busy } = props;
  const fields = status.fields.map((field) => (
    <FieldInput
      card="marketo"
      key={field.key}
      field={field}
      value={values[field.key] ?? ""}
      secretSet={field.secret ? Boolean(status.saved?.secretSet) : undefined}
      invalid={fieldOf(error) === field.key ? error?.message : undefined}
      onChange={(value) => props.onValues({ ...values, [field.key]: value })}
    />
  ));
  const save = (
    <button type="submit" disabled={busy}>
      Save
    </button>
  );
  return (
    <form onSubmit={props.onSave}>
      {status.active?.sandbox ? (
        // On the sandbox no credentials are needed: empty boxes and "Secret: not set" read as something
        // missing (trial s9, finding 9), so they wait, closed, for whoever moves to their own instance.
        <details className="own-instance">
          <summary>Use your own Marketo instance</summary>
          <p className="hint" data-testid="marketo-own-instance">
            To work on your own Marketo instance instead, enter its API credentials (Marketo Admin &gt;
            Integration &gt; LaunchPoint) and Save: Marketo checks them first, and the server uses them from
            its next start.
          </p>
          {fields}
          <div className="actions">{save}</div>
        </details>
      ) : (
        fields
      )}
      <div className="actions">
        {status.active?.sandbox ? null : save}
        <button type="button" onClick={props.onTest} disabled={busy}>
          Test connection
        </button>
        <button type="button" className="danger" onClick={props.onRemove} disabled={busy || !status.saved}>
          Remove
        </button>
      </div>
    </form>
  );
}

/** Which connection the tools use now, and whether environment variables hide the saved one. */
function ConnectionStatus({
  active,
  hasSaved,
}: {
  active: MarketoStatus["active"] | undefined;
  hasSaved: boolean;
}) {
  return (
    <p className="status" data-testid="marketo-status">
      {active
        ? active.sandbox
          ? "Using the built-in sandbox: made-up leads, lists and campaigns on this machine; no Marketo account or credentials are needed, and nothing is sent to Adobe."
          : `Connected to ${active.restEndpoint} (Client ID ${active.clientId}, from ${active.source === "environment" ? "environment variables" : "this page"}).`
        : "Not configured."}
      {active?.source === "environment" && hasSaved
        ? active.sandbox
          ? " The saved connection is used from the server's next start."
          : " Environment variables win over the saved connection."
        : ""}
    </p>
  );
}

/**
 * What Save, Remove or Test said; a test's technical line (the token's lifetime, for whoever checks the
 * connection's plumbing) folded under Details (trial s7, finding 15: it was the headline, twice).
 */
function Notice({ notice, detail }: { notice: string; detail: string | undefined }) {
  return (
    <>
      <p className="notice" role="status">
        {notice}
      </p>
      {detail ? (
        <details className="result-details">
          <summary>Details</summary>
          <p>{detail}</p>
        </details>
      ) : null}
    </>
  );
}

/** The card's heading, with its state: not set up or failing needs attention; tested, connected. */
function MarketoHeading({ status }: { status: MarketoStatus | undefined }) {
  const state = status?.active
    ? status.problem
      ? "attention"
      : chipState([
          status.lastTest ? { ok: status.lastTest.ok, at: Date.parse(status.lastTest.at) } : undefined,
          status.calls?.last,
        ])
    : "attention";
  return <h2>Adobe Marketo Engage {status ? <StatusChip state={state} /> : null}</h2>;
}

/**
 * The instance the tools work on, by its host (trial s5, finding 8: the card named none): the REST
 * endpoint's host, e.g. 123-ABC-456.mktorest.com, which names the instance and holds no secret.
 */
function Instance({ restEndpoint }: { restEndpoint: string }) {
  let host = restEndpoint;
  try {
    host = new URL(restEndpoint).host;
  } catch {
    // Not a URL: shown as saved.
  }
  return (
    <p className="status" data-testid="marketo-instance">
      Instance: {host}
    </p>
  );
}

/**
 * What the calls since this server started say (trial s10, finding 5: "Set up, not tested yet" beside 21
 * calls answered): working, with how many and since when, or that the last one failed and why. Not a
 * Test: the Test's own line says when one was run.
 */
/** The error's words as a sentence: its own full stop, or one added. */
const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

function CallsLine({ calls }: { calls: CallRecord }) {
  const { last, answered, since } = calls;
  if (!last) return null;
  const count = `${answered.toLocaleString("en-US")} ${answered === 1 ? "call" : "calls"} answered`;
  return (
    <p className="status" data-testid="marketo-calls" data-ok={last.ok}>
      {last.ok
        ? `Working: ${count} since ${timeWords(since ?? last.at)}.`
        : `The last call failed (${timeWords(last.at)}): ${sentence(last.message ?? "no reason given")}${answered > 0 ? ` Before it, ${count} since ${timeWords(since ?? last.at)}.` : ""}`}
    </p>
  );
}

/** When the connection was last tested here, and how it went. */
function LastTestLine({ test }: { test: LastTest }) {
  return (
    <p className="last-test" data-testid="marketo-last-test" data-ok={test.ok}>
      Last tested {timeWords(test.at)}: {test.ok ? "OK" : "failed"}. {test.message}
    </p>
  );
}

/** Today's calls against the daily quota, and the rate window's use. */
function UsageList({ usage }: { usage: MarketoUsage }) {
  return (
    <dl className="usage">
      <dt>Calls today</dt>
      <dd>
        {usage.callsToday.toLocaleString()} of {usage.dailyQuota.toLocaleString()} (daily quota;{" "}
        {usage.remaining.toLocaleString()} left)
      </dd>
      <dt>Rate window</dt>
      <dd>
        {usage.windowCalls} of {usage.callsPerWindow} calls in the last {Math.round(usage.windowMs / 1000)} s
      </dd>
    </dl>
  );
}
