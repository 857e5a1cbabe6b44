import { useEffect, useState } from "react";
import { api, loadSession, type Session } from "./api.ts";
import { Integrations } from "./Integrations.tsx";
import { Login } from "./Login.tsx";
import { StepBar } from "./StepBar.tsx";

const readRoute = () => window.location.hash.replace(/^#\/?/, "").split("?")[0] ?? "";

/** The screen named by the URL's hash: #/ (tool steps) or #/integrations. */
function useRoute(): string {
  const [route, setRoute] = useState(readRoute);
  useEffect(() => {
    const onChange = () => setRoute(readRoute());
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return route;
}

export function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const route = useRoute();
  useEffect(() => {
    loadSession().then(
      (found) => setSession(found ?? null),
      () => setSession(null),
    );
  }, []);

  if (session === undefined) return <p className="loading">Loading…</p>;
  if (session === null)
    return (
      <Login
        linkUsed={route === "login-link-used"}
        linkExpired={route === "login-link-expired"}
        onLoggedIn={setSession}
      />
    );
  const logout = async () => {
    await api("POST", "/console/api/logout");
    setSession(null);
  };
  return (
    <div className="app">
      <header>
        <strong>martech-steps</strong>
        <nav aria-label="Screens">
          <a href="#/" aria-current={route !== "integrations" ? "page" : undefined}>
            Tool steps
          </a>
          <a href="#/integrations" aria-current={route === "integrations" ? "page" : undefined}>
            Integrations
          </a>
        </nav>
        <span className="workspace">
          Workspace <b>{session.workspace}</b>
          {Object.values(session.sandbox).some(Boolean) ? <span className="badge">sandbox</span> : null}
        </span>
        <button type="button" className="link" onClick={logout}>
          Log out
        </button>
      </header>
      <main>{route === "integrations" ? <Integrations /> : <StepBar />}</main>
    </div>
  );
}
