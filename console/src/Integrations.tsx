import { GoogleCard } from "./google/GoogleCard.tsx";
import { MarketoCard } from "./marketo/MarketoCard.tsx";

export interface ConfigField {
  key: string;
  label: string;
  type: string;
  required: boolean;
  secret: boolean;
  env: string;
  description: string;
}

/**
 * One card per connection room of the server's registry (src/connections/registry.ts), in its order. The
 * page cannot import the registry (it is server code); a room with a console card adds one line here.
 */
const CONNECTION_CARDS = { marketo: MarketoCard, google: GoogleCard };

/** The integrations page (admins): Marketo's connection and the connected Google accounts. */
export function Integrations() {
  const query = new URLSearchParams(window.location.hash.split("?")[1] ?? "");
  const connected = query.get("connected");
  // The same Google account connected again replaced the old one's token (connectedWords on the server).
  const replaced = query.get("replaced");
  // ...under another label than the one asked for: the account now goes by the new one.
  const was = query.get("was");
  // ...or asked for a label another account has: it kept its own.
  const refused = query.get("refused");
  return (
    <div className="integrations">
      <h1>Integrations</h1>
      {connected ? (
        <p className="notice" role="status">
          {replaced
            ? was
              ? `${replaced} was already connected as "${was}"; it is now labelled "${connected}" and its token was replaced (one entry per Google account).`
              : refused
                ? `${replaced} was already connected as "${connected}"; its token was replaced, and it keeps that label: "${refused}" is another connected account's (one entry per Google account).`
                : `${replaced} was already connected as "${connected}"; its token was replaced (one entry per Google account).`
            : `The Google account "${connected}" is connected.`}
        </p>
      ) : null}
      {Object.entries(CONNECTION_CARDS).map(([kind, Card]) => (
        <Card key={kind} />
      ))}
    </div>
  );
}

/** A text input for a manifest connection field; a secret is write-only: the page only knows whether it is set. */
export function FieldInput(props: {
  /** The card's own prefix: Marketo and Google both have a clientId and a clientSecret field. */
  card: string;
  field: ConfigField;
  value: string;
  onChange: (value: string) => void;
  secretSet?: boolean;
  invalid?: string;
}) {
  const { field, value, onChange, secretSet, invalid } = props;
  // Ids unique on the page: a label shared by two cards' inputs labels only the first (axe label rules).
  const id = `${props.card}-field-${field.key}`;
  return (
    <div className={invalid ? "field has-error" : "field"}>
      <label htmlFor={id}>{field.label}</label>
      <input
        id={id}
        type={field.secret ? "password" : field.type === "url" ? "url" : "text"}
        autoComplete={field.secret ? "new-password" : "off"}
        placeholder={field.secret ? (secretSet ? "set (leave empty to keep it)" : "not set") : ""}
        value={value}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={`${id}-help`}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={`${id}-help`} className="field-description">
        {field.description}
        {field.secret ? (
          <span className="secret-state"> Secret: {secretSet ? "set" : "not set"}.</span>
        ) : null}
      </p>
      {invalid ? <p className="error">{invalid}</p> : null}
    </div>
  );
}
