/**
 * A list's members with a search box over them (trial s10, finding 2: "Beta Testers has 81 members", and
 * the lead just added was found only by scrolling): typed email, name or id narrows the table, "12 of 81
 * shown" says how far, and the leads of an add (the add's "Show the members" button) come first and say
 * whether they were just added or on the list already (console review s14, finding 4).
 */
import { useId, useMemo, useState } from "react";
import { RecordsTable } from "../RecordsTable.tsx";
import type { MarkedLead } from "../task-start.ts";
import { leadName } from "./marketo-words.ts";
import { membersShown } from "./member-search.ts";

type Row = Record<string, unknown>;

export function MemberSearch(props: {
  rows: Row[];
  /** The leads an add named: first, and said whether just added or there already. */
  marked: readonly MarkedLead[];
  format?: ((column: string, value: unknown) => unknown) | undefined;
  title?: ((column: string) => string) | undefined;
}) {
  const { rows, marked } = props;
  const id = useId();
  const [typed, setTyped] = useState("");
  const ids = useMemo(() => marked.map((lead) => lead.id), [marked]);
  const shown = useMemo(() => membersShown(rows, typed, ids), [rows, typed, ids]);
  const lead = marked[0];
  const first = lead ? shown.find((row) => String(row.id) === lead.id) : undefined;
  const how = lead?.already ? "already on the list" : "just added";
  return (
    <div className="member-search">
      <div className="field">
        <label htmlFor={id}>Find a member</label>
        <input
          id={id}
          type="search"
          className="form-control"
          placeholder="Email, name or lead ID"
          value={typed}
          aria-describedby={`${id}-shown`}
          onChange={(event) => setTyped(event.target.value)}
        />
        <p id={`${id}-shown`} className="field-note" role="status">
          {shown.length.toLocaleString("en-US")} of {rows.length.toLocaleString("en-US")} shown
          {first ? `; ${leadName(first)}, ${how}, first.` : "."}
        </p>
      </div>
      <RecordsTable
        label="Records"
        rows={shown}
        {...(props.format ? { format: props.format } : {})}
        {...(props.title ? { title: props.title } : {})}
      />
    </div>
  );
}
