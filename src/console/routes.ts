/**
 * The console API's resources, one handler per route: the tool steps (search, form, run, tasks) and kept
 * results; each service's card brings its own (src/console/<service>.ts, listed in cards.ts). Each runs
 * after the API's checks (app.ts), with the session's workspace in `c.var.workspace`.
 */

import { CONNECTION_KINDS } from "../connections/registry.js";
import { answered } from "../web/node-bridge.js";
import { type ConsoleApp, type ConsoleCard, type ConsoleDeps, ok, refused } from "./api-context.js";
import { CONSOLE_CARDS } from "./cards.js";
import { readJson } from "./http-util.js";
import { resultPage, sendDownload } from "./result-files.js";
import { cancelRun, runStep, searchSteps, sendFormModule } from "./steps.js";
import { taskChoices, taskInputNamed } from "./tasks.js";

/**
 * The rooms' cards, in the registry's order: each room's from the console's list of cards (cards.ts), for
 * a room that has one (docs/ARCHITECTURE.md, "Checklist: adding a service").
 */
export function consoleCards(deps: ConsoleDeps): readonly ConsoleCard[] {
  return CONNECTION_KINDS.flatMap((kind) => CONSOLE_CARDS[kind]?.(deps) ?? []);
}

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
    ok(
      c,
      await taskInputNamed(
        c.var.workspace,
        c.req.param("step"),
        c.req.param("task"),
        await readJson(c.env.incoming),
      ),
    ),
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
