import { type FormEvent, useCallback, useState } from "react";
import { type ApiError, api, type ErrorInfo } from "../api.ts";
import { type ConfigField, FieldInput } from "../Integrations.tsx";
import { Problem } from "../Problem.tsx";
import { useAction } from "../useAction.ts";
import { useStatus } from "../useRefresh.ts";
import { type Account, AccountCards } from "./GoogleAccounts.tsx";

interface GoogleStatus {
  fields: ConfigField[];
  client: { source: "environment" | "store"; sandbox: boolean; clientId: string; secretSet: boolean } | null;
  accounts: Account[];
  /** The hosts the Google connection talks to (the sandbox's loopback, or Google's APIs). */
  hosts: string[];
}

/** Google: the OAuth client (write-only secret), "Connect a Google account" (PKCE, via the browser), the accounts. */
export function GoogleCard() {
  const [status, setStatus] = useState<GoogleStatus | undefined>();
  const [client, setClient] = useState<Record<string, string>>({ clientId: "", clientSecret: "" });
  const [label, setLabel] = useState("");
  const { busy, error, setError, notice, setNotice, act } = useAction();

  const show = useCallback((next: GoogleStatus) => {
    setStatus(next);
    setClient({ clientId: next.client?.source === "store" ? next.client.clientId : "", clientSecret: "" });
  }, []);
  const failed = useCallback((e: ApiError) => setError(e.info), [setError]);
  useStatus<GoogleStatus>("/console/api/google", show, setStatus, failed);

  const saveClient = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      show(await api<GoogleStatus>("POST", "/console/api/google/client", client));
      setNotice("The OAuth client is saved (the secret encrypted at rest).");
    });
  };
  const connect = () =>
    act(async () => {
      const { url } = await api<{ url: string }>(
        "POST",
        "/console/api/google/connect",
        label ? { label } : {},
      );
      // Google's consent screen (the sandbox's, on `npm start`), which comes back to /console/oauth/callback.
      window.location.assign(url);
    });
  const remove = (account: Account) => {
    const where = account.sandbox ? "the sandbox" : "Google";
    if (!window.confirm(`Remove the Google account "${account.label}"? Its access is revoked at ${where}.`))
      return;
    void act(async () => {
      const outcome = await api<GoogleStatus & { revoked: boolean; reason?: string }>(
        "DELETE",
        `/console/api/google/accounts/${encodeURIComponent(account.label)}`,
      );
      show(outcome);
      setNotice(
        outcome.revoked
          ? `"${account.label}" was removed and its access revoked at ${where}.`
          : `"${account.label}" was removed; revoking it at ${where} did not happen (${outcome.reason ?? "unknown reason"}).`,
      );
    });
  };

  return (
    <section className="card" aria-label="Google Analytics 4">
      <h2>Google Analytics 4</h2>
      <ClientSection
        status={status}
        client={client}
        error={error}
        busy={busy}
        onChange={setClient}
        onSubmit={saveClient}
      />
      <h3>Connected accounts</h3>
      <AccountCards
        accounts={status?.accounts ?? []}
        hosts={status?.hosts ?? []}
        busy={busy}
        onRemove={remove}
      />
      <div className="connect">
        <label htmlFor="account-label">Label (optional)</label>
        <input id="account-label" value={label} onChange={(event) => setLabel(event.target.value)} />
        <button type="button" onClick={connect} disabled={busy || !status?.client}>
          Connect a Google account
        </button>
      </div>
      {notice ? <Notice text={notice} /> : null}
      {error && !status?.fields.some((f) => f.key === error.field) ? <Problem error={error} /> : null}
    </section>
  );
}

function Notice({ text }: { text: string }) {
  return (
    <p className="notice" role="status">
      {text}
    </p>
  );
}

/** The OAuth client: where it comes from, and its form unless environment variables set it. */
function ClientSection({
  status,
  client,
  error,
  busy,
  onChange,
  onSubmit,
}: {
  status: GoogleStatus | undefined;
  client: Record<string, string>;
  error: ErrorInfo | undefined;
  busy: boolean;
  onChange: (client: Record<string, string>) => void;
  onSubmit: (event: FormEvent) => void;
}) {
  return (
    <>
      <h3>OAuth client</h3>
      <p className="status" data-testid="google-client-status">
        {status?.client
          ? status.client.sandbox
            ? "Using the built-in sandbox's OAuth client."
            : `Client ID ${status.client.clientId} (from ${status.client.source === "environment" ? "environment variables" : "this page"}).`
          : "No OAuth client: create a Desktop app client in the Google Cloud console and enter it here."}
      </p>
      {status && status.client?.source !== "environment" ? (
        <form onSubmit={onSubmit}>
          {status.fields.map((field) => (
            <FieldInput
              card="google"
              key={field.key}
              field={field}
              value={client[field.key] ?? ""}
              secretSet={field.secret ? Boolean(status.client?.secretSet) : undefined}
              invalid={error?.field === field.key ? error.message : undefined}
              onChange={(value) => onChange({ ...client, [field.key]: value })}
            />
          ))}
          <div className="actions">
            <button type="submit" disabled={busy}>
              Save client
            </button>
          </div>
        </form>
      ) : null}
    </>
  );
}
