/**
 * What every connection room declares. A room (`src/connections/<service>/`) holds one service's
 * credential shape, how it is read (store and environment), verified, saved and removed, its sandbox
 * wiring and how its connector is built, the warnings it reads in a step's answer and what it adds to the
 * metrics; the registry (registry.ts) lists the rooms, and everything that needs the list of services (the
 * workspace, the manifest, metrics, the MCP log, `npm start`) derives it from there, naming no service.
 */
import type { CredentialStore, WorkspaceSecrets } from "../auth/store-core.js";
import type { AnyMartechError } from "../errors.js";
import type { SharedState } from "../state/types.js";

/** One field of a connection's configuration form (manifest.json's `connections[].fields`). */
export interface ConfigField {
  key: string;
  label: string;
  type: "string" | "url";
  required: boolean;
  secret: boolean;
  env: string;
  description: string;
}

/** A connection as manifest.json describes it to a platform (and the console its form). */
export interface ConnectionDefinition<K extends string = string> {
  id: K;
  title: string;
  auth: "oauth2_client_credentials" | "oauth2_authorization_code";
  description: string;
  fields: ConfigField[];
  scopes?: readonly string[];
}

/** One workspace's entry of the credential store, read and changed under the store's lock. */
export interface SecretsTarget {
  readonly workspace: string;
  read(): Promise<WorkspaceSecrets>;
  update(change: (current: WorkspaceSecrets) => WorkspaceSecrets): Promise<unknown>;
}

/** What a room opens a workspace's connection with: never another workspace's entry. */
export interface RoomContext {
  readonly workspace: string;
  /** Whether this is the default workspace: the only one the service's environment variables configure. */
  readonly isDefault: boolean;
  readonly env: NodeJS.ProcessEnv;
  readonly store: CredentialStore;
  readonly state: SharedState;
  readonly fetch?: typeof fetch | undefined;
}

/** One workspace's side of a connection: builds its connector, and keeps it while the credentials hold. */
export interface ConnectionHandle<C> {
  /** The connector; `account` names a connected account where the service has several (Google). */
  connector(account?: string): Promise<C>;
  /** Forgets kept connectors (after the admin changed the connection). */
  forget(): void;
}

/** An emulator of the embedded sandbox, as every room's sandbox wiring starts it. */
export interface Emulator {
  close(): Promise<void>;
}

/**
 * A room's sandbox wiring (loaded only by the CLI commands that start the sandbox, never at cold start):
 * its emulator, the variables that point the product at it, and the sandbox connection in a store.
 */
export interface SandboxWiring<E extends Emulator> {
  start(port: number): Promise<E>;
  /** The variables that point the product at the emulator (sandbox credentials are public values). */
  env(emulator: E): Record<string, string>;
  /** Gives a workspace of a sandbox-owned store the sandbox connection. */
  connect(store: CredentialStore, workspace: string, emulator: E, env: NodeJS.ProcessEnv): Promise<void>;
  /** `npm start`'s line for it, e.g. "sandbox at http://127.0.0.1:4010/rest". */
  describe(emulator: E): string;
  /**
   * `npm start` with this emulator: the store the server uses, when the sandbox connection must be held
   * in this process rather than come from the environment (default: the base store unchanged).
   */
  hold?(base: CredentialStore, emulator: E, env: NodeJS.ProcessEnv): Promise<CredentialStore>;
  /** `martech-steps sandbox`'s banner lines about it (stderr), given the sandbox's own folder. */
  banner(emulator: E, home: string): string[];
  /** `martech-steps sandbox`: what it puts in the sandbox's own folder for the user to try (removed with it). */
  furnish?(emulator: E, home: string): Promise<void>;
}

/**
 * A room's emulator as the `martech-steps sandbox` command knows it before loading it (its options are
 * registered at every start, where loading the emulators would cost cold start).
 */
export interface SandboxCommand {
  /** Its port option, e.g. "--marketo-port". */
  portFlag: `--${string}-port`;
  /** Its port in a terminal when the option is not given (in the background, any free one). */
  defaultPort: number;
  /** The emulator in the option's help, e.g. "Marketo emulator". */
  emulator: string;
  /** What it emulates, in the command's description, e.g. "GA4 and Google OAuth". */
  emulates: string;
  /** Every variable its wiring's env() sets, in that order: `sandbox --unset` takes them out of the shell. */
  variables: readonly string[];
}

/**
 * A log line a room reads in a step's answer (the MCP server sends it as a log notification). Shaped as
 * ToolLogEntry (src/tools/types.ts), which this floor may not import.
 */
export interface RoomLogEntry {
  level: "warning";
  message: string;
  data?: Record<string, string | number | boolean>;
}

/** A gauge a room adds to /metrics (labelled with the room's service), read at every scrape. */
export interface RoomGauge {
  name: string;
  help: string;
  /** The value now; undefined leaves the gauge without a sample. */
  read(): Promise<number | undefined>;
}

/** What a room adds to the process's metrics (src/ops/metrics.ts asks every room, in registry order). */
export interface RoomMetrics {
  /** The limit answers counted as refusals, for the help text, e.g. "GA4 HTTP 429". */
  limitRefusals: string;
  /** Where its access tokens come from, for the help text, e.g. "Google's token endpoint". */
  tokenSource: string;
  /** Its own gauges. */
  gauges?: readonly RoomGauge[];
}

/** One argument of a room's prompt: MCP prompt arguments are strings. */
export interface RoomPromptArgument {
  name: string;
  description: string;
  /** Required unless set. */
  optional?: boolean;
}

/**
 * A ready-made request a person picks in an MCP client (prompts/get), about the room's service: it names
 * the tool steps and arguments to use, so the model starts from a call that works.
 */
export interface RoomPrompt {
  name: string;
  title: string;
  description: string;
  arguments: readonly RoomPromptArgument[];
  /** The request's text, from the arguments the client sent (an optional one may be absent). */
  text(args: Readonly<Record<string, string | undefined>>): string;
}

/**
 * A document the MCP server offers as a resource for the room's service (e.g. Marketo's recipes): its
 * description up front, its JSON read when a client reads it (loaded then, not at start).
 */
export interface RoomResource {
  name: string;
  uri: string;
  title: string;
  description: string;
  read(): Promise<unknown>;
}

/**
 * What the CLI's help and messages say of a room, in its own words (its command is `RoomCli.command`,
 * below); the CLI joins the rooms' words in registry order.
 */
export interface RoomCliWords {
  /** The service in the program's description, e.g. "Google Analytics 4". */
  name: string;
  /** What a workspace's store holds of it, in the warning that a store started over, e.g. "Marketo". */
  stored: string;
  /** What `serve --sandbox` gives it besides its emulator, in the option's help, e.g. "its own Google account". */
  sandbox?: string;
  /** A step id, for `call <step-id>`'s help (the first room's is shown), e.g. "marketo_api_call". */
  step?: string;
  /** `martech-steps --help`'s example lines for its steps. */
  examples?: readonly string[];
  /** `martech-steps call --help`'s example lines for its steps. */
  callExamples?: readonly string[];
}

/** A room, as the registry lists it. */
export interface ConnectionRoom<
  K extends string,
  S extends string,
  C,
  H extends ConnectionHandle<C>,
  E extends Emulator = Emulator,
> extends RoomSignInPart {
  kind: K;
  /** The service's short name in messages, e.g. "Marketo", "Google Analytics". */
  label: string;
  /** The product's full name, e.g. "Adobe Marketo Engage" (the package's description in manifest.json). */
  product: string;
  /** The service id of the steps and metrics labels, e.g. "google_analytics". */
  service: S;
  definition: ConnectionDefinition<K>;
  open(context: RoomContext): H;
  /**
   * Whether something that reaches the real service is configured for the default workspace (`npm start`
   * starts the room's emulator when not).
   */
  configured(context: RoomContext): Promise<boolean>;
  /** Its sandbox wiring, loaded on use; a room without an emulator has none (`npm start` then runs without it). */
  sandbox?: () => Promise<SandboxWiring<E>>;
  /** Its emulator in the `martech-steps sandbox` command (with `sandbox`). */
  sandboxCommand?: SandboxCommand;
  /** The warnings a step's answer carries about this service (e.g. its quota running low), for the log. */
  logWarnings?(answer: object): RoomLogEntry[];
  /** What it adds to the metrics. */
  metrics: RoomMetrics;
  /** The MCP prompts about its service (src/mcp/prompts.ts lists every room's, in registry order). */
  prompts?: readonly RoomPrompt[];
  /** The MCP resources about its service (src/mcp/resources.ts). */
  resources?: readonly RoomResource[];
  /** The step whose results the MCP App's chart view draws (src/mcp/report-chart-app.ts), if one of its own. */
  chartAppStep?: string;
  /** What the CLI's help and messages say of it, and its command (see "The CLI's part of a room" below). */
  cli: RoomCli<H>;
  /**
   * Set when its handle holds several connected accounts (`handle.accounts`), chosen by label: they are
   * the steps' account choice, and connecting or removing one changes MCP's tool list.
   */
  accounts?: true;
}

// ---------------------------------------------------------------------------------------------------------
// The MCP server's sign-in (src/mcp/elicit-connect.ts, tool-call.ts): what a room whose accounts connect in
// the user's browser tells the MCP layer, which names no service (issue 29, section 2).
// ---------------------------------------------------------------------------------------------------------

/**
 * How the MCP server offers a room's sign-in: when a step fails because none of the room's accounts is
 * connected, a client that can open a link gets the consent URL (URL-mode elicitation), and the account is
 * connected in the browser through the workspace's `accounts.beginConnect`.
 */
export interface RoomSignIn {
  /** The key of the link in a 2026-07-28 input-required result, and of its answer on the retry. */
  key: string;
  /** What the client shows with the link, e.g. "Connect a Google Analytics account for martech-steps.". */
  message: string;
  /** The step's error once the link was sent, e.g. "No Google account is connected to this workspace.". */
  notConnected: string;
  /** The call's progress message while a retry waits for the sign-in to finish. */
  waiting: string;
  /** Whether a step's error is the one the sign-in fixes: no account of the room's is connected. */
  isNotConnected(error: AnyMartechError): boolean;
}

/** A room's part of the MCP sign-in: only the room that holds the connected accounts (`accounts`) has one. */
export interface RoomSignInPart {
  /** Its sign-in, offered by the MCP server (src/mcp/elicit-connect.ts) to a client that can open a link. */
  signIn?: RoomSignIn;
}

// The CLI's part of a room: its command (`martech-steps marketo ...`, `martech-steps accounts ...`), declared
// here and registered by src/cli/room-commands.ts for every room, in registry order. The declaration is
// light (words and option flags: it is read at every start, `serve` included); what a subcommand does is
// loaded when it runs. The CLI gives the action the workspace's side and the terminal, so the room needs
// nothing of the CLI.
// ---------------------------------------------------------------------------------------------------------

/** What the CLI says and does for a room: its words, and its command if it has one. */
export interface RoomCli<H> extends RoomCliWords {
  command?: RoomCommand<H>;
}

/** A room's command: `martech-steps <name> <subcommand>` (every subcommand also takes `--workspace <name>`). */
export interface RoomCommand<H> {
  name: string;
  description: string;
  subcommands: readonly RoomSubcommand<H>[];
}

/** An option of a subcommand, as commander reads it, e.g. `{ flags: "--client-id <id>", description }`. */
export interface RoomCommandOption {
  flags: string;
  description: string;
  /** A required option (commander's requiredOption). */
  required?: true;
}

/** The option values a subcommand's action receives, by their camel-cased names (`--client-id` is clientId). */
export type RoomCommandOptions = Readonly<Record<string, string | boolean | undefined>>;

export interface RoomSubcommand<H> {
  name: string;
  description: string;
  /** Its one positional argument, e.g. `{ name: "<label>", description: "account label" }`. */
  argument?: { name: string; description: string };
  options: readonly RoomCommandOption[];
  /**
   * Runs it (loading what it needs now, not at start). A method: a room's action may take its handle's type
   * and its options' shape (a type of the values its flags give), and still fit AnyRoom.
   */
  run(context: RoomCommandContext<H>, options: RoomCommandOptions, argument?: string): Promise<void>;
}

/** What a room's command may use of the terminal. */
export interface RoomTerminal {
  /** A plain value from a prompt (echoed), naming the flag that gives it instead. */
  prompt(label: string, flag: string): Promise<string>;
  /** A secret from piped stdin or a prompt that does not echo (never from a flag). */
  readSecret(label: string): Promise<string>;
  /** A line on stderr (what the command did, a warning). */
  say(line: string): void;
  /** The command's answer as JSON on stdout. */
  printJson(value: unknown): void;
  /** Opens a URL in the user's browser, at best (the command prints it too). */
  openBrowser(url: string): void;
}

/** The workspace a room's subcommand runs on (opened by the CLI, closed after the action). */
export interface RoomCommandContext<H> {
  readonly workspace: string;
  readonly isDefault: boolean;
  /** The room's handle of this workspace. */
  readonly handle: H;
  /** This workspace's entry of the store. */
  readonly secrets: SecretsTarget;
  /**
   * The same entry, written even when the store cannot be opened: then it starts over from an empty
   * document, the old one kept aside (the CLI says where).
   */
  readonly startingOver: SecretsTarget;
  /** Call after connecting or removing one of its accounts. */
  accountsChanged(): void;
  readonly terminal: RoomTerminal;
}
