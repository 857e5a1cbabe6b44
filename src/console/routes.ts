/**
 * The console API's resources, one handler per route: the tool steps (search, form, run), Marketo's
 * credentials and Google's client and accounts. Each runs after the API's checks (app.ts), with the
 * session's workspace in `c.var.workspace`.
 */
import { ValidationError } from "../errors.js";
import { answered } from "../web/node-bridge.js";
import { type ConsoleApp, type ConsoleContext, type ConsoleDeps, ok, refused } from "./api-context.js";
import { googleStatus, removeGoogleClient, saveGoogleClient, testGoogleAccount } from "./google.js";
import { analyticsChoices, type EventPeriod, propertyEvents, propertyFields } from "./google-pickers.js";
import { readJson, stringField } from "./http-util.js";
import { marketoStatus, removeMarketo, saveMarketo, testMarketo } from "./marketo.js";
import { resultPage, sendDownload } from "./result-files.js";
import { cancelRun, runStep, searchSteps, sendFormModule } from "./steps.js";
import { taskChoices, taskInput } from "./tasks.js";

/** A step id as routes accept it (the registry's ids are lower-case words joined by "_"). */
const STEP = ":step{[a-z0-9_]+}";

export function stepRoutes(app: ConsoleApp, deps: ConsoleDeps): void {
  app.get("/console/api/steps", (c) => {
    searchSteps(c.env.outgoing, c.env.url.searchParams.get("q") ?? "");
    return answered(c);
  });
  app.get(`/console/api/steps/${STEP}/form.js`, async (c) => {
    await sendFormModule(c.env.outgoing, c.var.workspace, c.req.param("step"));
    return answered(c);
  });
  app.post(`/console/api/steps/${STEP}/run`, async (c) => {
    await runStep(c.env.incoming, c.env.outgoing, c.var.workspace, c.req.param("step"), {
      runs: deps.running,
      session: c.var.session.id,
    });
    return answered(c);
  });
  const TASK = `/console/api/steps/${STEP}/tasks/:task{[a-z0-9_]+}`;
  app.get(`${TASK}/choices/:field{[a-z0-9_]+}`, async (c) =>
    ok(c, await taskChoices(c.var.workspace, c.req.param("step"), c.req.param("task"), c.req.param("field"))),
  );
  app.post(`${TASK}/input`, async (c) =>
    ok(c, taskInput(c.req.param("step"), c.req.param("task"), await readJson(c.env.incoming))),
  );
  app.post("/console/api/runs/:run/cancel", (c) =>
    cancelRun(deps.running, c.var.session.id, c.req.param("run"))
      ? ok(c)
      : refused(c, 404, "not_found", "No run of yours with this id is in progress (it may have ended)."),
  );
}

/** A kept result's pages (the page's "Load more") and its whole downloads, for the session's workspace. */
export function resultRoutes(app: ConsoleApp): void {
  app.get("/console/api/results/:id/pages/:page{[0-9]+}", async (c) =>
    ok(c, await resultPage(c.var.workspace, c.req.param("id"), Number(c.req.param("page")))),
  );
  app.get("/console/api/results/:id/download/:format{json|csv}", async (c) => {
    const format = c.req.param("format") === "csv" ? "csv" : "json";
    await sendDownload(c.env.outgoing, c.var.workspace, c.req.param("id"), format);
    return answered(c);
  });
}

export function marketoRoutes(app: ConsoleApp, deps: ConsoleDeps): void {
  const status = async (c: ConsoleContext) =>
    ok(c, await marketoStatus(c.var.workspace, Boolean(deps.sandbox.marketo)));
  app.get("/console/api/marketo", status);
  app.post("/console/api/marketo", async (c) => {
    await saveMarketo(c.var.workspace, await readJson(c.env.incoming));
    return status(c);
  });
  app.delete("/console/api/marketo", async (c) => {
    await removeMarketo(c.var.workspace);
    return status(c);
  });
  app.post("/console/api/marketo/test", async (c) =>
    // No body (an older page, a script): the connection in force is tested.
    ok(
      c,
      await testMarketo(
        c.var.workspace,
        c.env.incoming.headers["content-type"] ? await readJson(c.env.incoming) : {},
      ),
    ),
  );
}

export function googleRoutes(app: ConsoleApp, deps: ConsoleDeps): void {
  const status = async (c: ConsoleContext) =>
    googleStatus(c.var.workspace, deps.env, Boolean(deps.sandbox.google));
  app.get("/console/api/google", async (c) => ok(c, await status(c)));
  app.post("/console/api/google/client", async (c) => {
    await saveGoogleClient(c.var.workspace, await readJson(c.env.incoming));
    return ok(c, await status(c));
  });
  app.delete("/console/api/google/client", async (c) => {
    await removeGoogleClient(c.var.workspace);
    return ok(c, await status(c));
  });
  app.post("/console/api/google/connect", async (c) => {
    const label = stringField(await readJson(c.env.incoming), "label", false);
    const { incoming, outgoing } = c.env;
    return ok(
      c,
      await deps.connects.begin(incoming, outgoing, c.var.session, c.var.workspace, c.var.origin, label),
    );
  });
  // The step forms' pickers: ?account= names the connected Google account (the only one when left out).
  const account = (c: ConsoleContext) => c.env.url.searchParams.get("account")?.slice(0, 200) || undefined;
  app.get("/console/api/google/summaries", async (c) =>
    ok(c, await analyticsChoices(c.var.workspace, account(c))),
  );
  app.get("/console/api/google/metadata", async (c) => {
    const property = c.env.url.searchParams.get("property") ?? "";
    return ok(c, await propertyFields(c.var.workspace, account(c), property.slice(0, 500)));
  });
  // A funnel's steps: ?period= a preset, or ?start=&end= dates (Run Reports checks either).
  app.get("/console/api/google/events", async (c) => {
    const query = c.env.url.searchParams;
    const property = (query.get("property") ?? "").slice(0, 500);
    const [start, end] = [query.get("start"), query.get("end")];
    const period: EventPeriod =
      start && end
        ? { start: start.slice(0, 20), end: end.slice(0, 20) }
        : { preset: (query.get("period") ?? "last28days").slice(0, 20) };
    return ok(c, await propertyEvents(c.var.workspace, account(c), property, period));
  });
  app.post("/console/api/google/accounts/:label/test", async (c) => {
    const raw = c.env.url.pathname.slice("/console/api/google/accounts/".length, -"/test".length);
    return ok(c, await testGoogleAccount(c.var.workspace, decodedPart(raw, "label")));
  });
  app.delete("/console/api/google/accounts/:label", async (c) => {
    const label = decodedPart(c.env.url.pathname.slice("/console/api/google/accounts/".length), "label");
    const outcome = await c.var.workspace.removeAccount(label);
    return ok(c, { ...outcome, ...(await status(c)) });
  });
}

/**
 * A path part, percent-decoded. Malformed percent-encoding is the client's mistake: a 400 naming the
 * part, not an internal error (hono would pass the raw text on instead).
 */
export function decodedPart(raw: string, name: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ValidationError(name, "its percent-encoding in the URL is malformed.", {
      hint: "Encode each byte of its UTF-8 as %XX (as encodeURIComponent does).",
    });
  }
}
