import { type FormEvent, useState } from "react";
import { api, loadSession, type Session } from "./api.ts";

/**
 * Shown without a session: the login link printed by `npm start` (its token works once), or, on a
 * server with API keys, the workspace's API key.
 */
export function Login(props: {
  linkUsed: boolean;
  linkExpired: boolean;
  onLoggedIn: (session: Session) => void;
}) {
  const [apiKey, setApiKey] = useState("");
  const [error, setError] = useState<string | undefined>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      await api("POST", "/console/api/login", { apiKey });
      const session = await loadSession();
      if (session) props.onLoggedIn(session);
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  return (
    <main className="login">
      <h1>Login required</h1>
      {props.linkUsed ? (
        <p className="error">
          That login link was already used or is unknown: a link works once. For a new one, run{" "}
          <code>martech-steps console-link</code> (in the project's folder: <code>npm run console-link</code>)
          on the machine the server runs on; the server keeps running.
        </p>
      ) : null}
      {props.linkExpired ? (
        <p className="error">
          That login link expired: a link works for 15 minutes, unless MARTECH_STEPS_LOGIN_TOKEN_TTL_MS sets
          another lifetime. For a new one, run <code>martech-steps console-link</code> (in the project's
          folder: <code>npm run console-link</code>) on the machine the server runs on; the server keeps
          running.
        </p>
      ) : null}
      <p>
        Open the console with the link that <code>npm start</code> printed in its terminal: its token logs you
        in once, and this browser stays logged in.
      </p>
      <form onSubmit={submit}>
        <p>Or, on a server with API keys (MARTECH_STEPS_API_KEYS), log in with your workspace's key:</p>
        <label>
          API key <input type="password" value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
        </label>
        <button type="submit" disabled={apiKey === ""}>
          Log in
        </button>
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
      </form>
    </main>
  );
}
