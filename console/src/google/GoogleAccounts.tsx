/**
 * The connected Google accounts, one card each: who it is connected as, the host it talks to, how it
 * was connected, its last Test (a token refresh and one accountSummaries call, on the server) and its
 * Test and Remove buttons.
 */
import { useState } from "react";
import { api } from "../api.ts";
import { Problem } from "../Problem.tsx";
import { chipState, StatusChip } from "../StatusChip.tsx";
import { timeWords } from "../time-words.ts";
import { useAction } from "../useAction.ts";
import { announceRun } from "../useRefresh.ts";
import {
  openingProperty,
  PropertyList,
  propertyNames,
  type Summaries,
  useSummaries,
} from "./AnalyticsProperties.tsx";
import { type QuotaSeen, quotaLine } from "./quota-words.ts";

export interface LastTest {
  at: string;
  ok: boolean;
  message: string;
}

export interface Account {
  label: string;
  email?: string;
  scopes: string[];
  addedAt: string;
  readOnly: boolean;
  /** The built-in sandbox's account: held by the server, never saved, never sent to Google. */
  sandbox?: boolean;
  connectedBy: string;
  lastTest: LastTest | null;
  /** Requests sent through the account since 00:00 UTC (every replica's, from the shared state). */
  callsToday: { calls: number; since: string };
  /** GA4 property quotas last returned to reports run as this account (this server's memory). */
  quotasSeen: QuotaSeen[];
}

const shortScope = (scope: string) => scope.replace("https://www.googleapis.com/auth/", "");

export function AccountCards(props: {
  accounts: Account[];
  hosts: string[];
  busy: boolean;
  onRemove: (account: Account) => void;
}) {
  if (props.accounts.length === 0) return <p>No Google account is connected.</p>;
  return (
    <ul className="connections" aria-label="Connected Google accounts">
      {props.accounts.map((account) => (
        <li key={account.label}>
          <AccountCard account={account} hosts={props.hosts} busy={props.busy} onRemove={props.onRemove} />
        </li>
      ))}
    </ul>
  );
}

/**
 * The last test's line before any Test: when the properties' listing (a read as the account) already
 * worked or failed, it says so, as the chip counts it (trial s7, finding 12: a green Connected beside "Not
 * tested since this server started"), in a person's words and never as a Test that was not run (trial
 * s10, finding 5: "No Test since this server started, but reading … worked").
 */
function untestedLine(listed: { ok: boolean; at: number } | undefined): string {
  if (!listed) return "Not tested since this server started.";
  // The listing's moment on the page's clock (performance.now()), as a time of day.
  const when = timeWords(performance.timeOrigin + listed.at);
  // One statement (console review s13, finding 4: "were read on 21:29. Not tested since this server started"
  // beside a server started at 21:25 read as a contradiction).
  return listed.ok
    ? `Working: its Analytics properties were read on ${when}.`
    : `Reading its Analytics properties failed on ${when}.`;
}

/**
 * The account's last test, and when the page learned it (`performance.now()`; the one the account came
 * with, before anything read here, at 0): the card's chip weighs it against the property listing.
 */
function useLastTest(initial: LastTest | null) {
  const [seen, setSeen] = useState<{ last: LastTest | null; lastAt: number }>({ last: initial, lastAt: 0 });
  const tested = (last: LastTest) => setSeen({ last, lastAt: performance.now() });
  return { ...seen, tested };
}

function AccountCard(props: {
  account: Account;
  hosts: string[];
  busy: boolean;
  onRemove: (account: Account) => void;
}) {
  const { last, lastAt, tested } = useLastTest(props.account.lastTest);
  const test = useAction();
  const { account } = props;
  const summaries = useSummaries(account.label);
  // Its properties listed is a read that worked: the latest of it and the last test says the state.
  const listed =
    summaries.at === undefined ? undefined : { ok: summaries.value !== undefined, at: summaries.at };
  const state = chipState([last ? { ok: last.ok, at: lastAt } : undefined, listed]);
  const run = () =>
    test.act(async () => {
      try {
        const answer = await api<{ message: string; lastTest: LastTest }>(
          "POST",
          `/console/api/google/accounts/${encodeURIComponent(account.label)}/test`,
        );
        tested(answer.lastTest);
      } catch (failure) {
        // A failed test is remembered by the server too: the card shows it as the last test.
        tested({ at: new Date().toISOString(), ok: false, message: (failure as Error).message });
        throw failure;
      } finally {
        // The Test called Google: the card's calls today count it.
        announceRun();
      }
    });
  return (
    <article className="connection" aria-label={`Google account ${account.label}`}>
      <h4>
        {account.label} <StatusChip state={state} /> <Badges account={account} />
      </h4>
      <dl className="usage">
        <dt>Connected as</dt>
        <dd data-testid="connected-as">{account.email ?? "(no email given)"}</dd>
        <dt>Talks to</dt>
        <dd data-testid="google-hosts">{props.hosts.join(", ")}</dd>
        <dt>Connected by</dt>
        <dd>{account.connectedBy}</dd>
        <dt>Scopes</dt>
        <dd>{account.scopes.map(shortScope).join(", ")}</dd>
        <dt>Added</dt>
        <dd>{timeWords(account.addedAt)}</dd>
        <dt>Last test</dt>
        <dd data-testid="google-last-test" data-ok={last ? last.ok : undefined}>
          {last
            ? `${timeWords(last.at)}: ${last.ok ? "OK" : "failed"}. ${last.message}`
            : untestedLine(listed)}
        </dd>
        <dt>Analytics properties</dt>
        <dd data-testid="google-properties">
          <PropertyList summaries={summaries} />
        </dd>
        <OpeningProperty summaries={summaries.value} />
        <UsageEntries account={account} names={propertyNames(summaries.value)} />
      </dl>
      <div className="actions">
        <button type="button" disabled={props.busy || test.busy} onClick={() => void run()}>
          Test
        </button>
        <button
          type="button"
          className="danger"
          disabled={props.busy || test.busy}
          onClick={() => props.onRemove(account)}
        >
          Remove
        </button>
      </div>
      {test.error ? <Problem error={test.error} /> : null}
    </article>
  );
}

/** What the account has used: calls today, and each property's GA4 tokens when last seen. */
function UsageEntries({ account, names }: { account: Account; names: ReadonlyMap<string, string> }) {
  const { calls, since } = account.callsToday;
  return (
    <>
      <dt>Calls today</dt>
      <dd data-testid="google-calls-today">
        {calls.toLocaleString("en-US")} since {timeWords(since)}
      </dd>
      <dt>GA4 quota last seen</dt>
      {account.quotasSeen.length === 0 ? (
        <dd data-testid="google-quota-seen">
          No report has been run as this account since this server started.
        </dd>
      ) : (
        account.quotasSeen.map((seen) => (
          <dd data-testid="google-quota-seen" key={`${seen.propertyId}:${seen.kind}`}>
            {quotaLine(seen, timeWords, names.get(seen.propertyId))}
          </dd>
        ))
      )}
    </>
  );
}

function Badges({ account }: { account: Account }) {
  return (
    <>
      {account.sandbox ? (
        <span
          className="badge"
          title="The built-in sandbox's account: held by this server only, never saved to your credential store or sent to Google."
        >
          sandbox
        </span>
      ) : null}
      {account.readOnly ? (
        <span className="badge warn" title="Reports work; creating key events or properties does not.">
          read only
        </span>
      ) : null}
    </>
  );
}

/** The property Run Reports opens on with this account, by name and id, once its properties are listed. */
function OpeningProperty({ summaries }: { summaries: Summaries | undefined }) {
  const property = openingProperty(summaries);
  if (!property) return null;
  return (
    <>
      <dt>Reports open on</dt>
      <dd data-testid="google-opening-property">
        {property.displayName} ({property.id})
      </dd>
    </>
  );
}
