import type { Command } from "commander";
import { ValidationError } from "../errors.js";
import { DEFAULT_WORKSPACE } from "../workspace.js";
import { printJson, prompt, readSecret } from "./io.js";
import { withWorkspace } from "./workspace.js";

/** Checks the admin-entered REST API Endpoint: https (http only on loopback, for the sandbox). */
export function checkRestEndpoint(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ValidationError("REST API Endpoint", `"${raw.slice(0, 100)}" is not a URL.`, {
      hint: "Copy it from Marketo Admin > Integration > Web Services, e.g. https://123-ABC-456.mktorest.com/rest.",
    });
  }
  const loopback = url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]";
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    throw new ValidationError("REST API Endpoint", "it must use https.", {
      hint: "e.g. https://123-ABC-456.mktorest.com/rest",
    });
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new ValidationError("REST API Endpoint", "it must not carry credentials, a query or a fragment.");
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

export function registerMarketoCommands(program: Command): void {
  const marketo = program
    .command("marketo")
    .description("Configure the workspace's Marketo connection (admins).");

  marketo
    .command("configure")
    .description(
      "Save Client ID, Client Secret (read from stdin or a hidden prompt, never a flag) and REST API Endpoint.",
    )
    .option("--client-id <id>", "Client ID of the LaunchPoint custom service")
    .option("--endpoint <url>", "REST API Endpoint, e.g. https://123-ABC-456.mktorest.com/rest")
    .option("--workspace <name>", "workspace", DEFAULT_WORKSPACE)
    .action(async (options: { clientId?: string; endpoint?: string; workspace: string }) => {
      await withWorkspace(options.workspace, async (workspace) => {
        const clientId = (options.clientId ?? (await prompt("Client ID"))).trim();
        if (!clientId) throw new ValidationError("Client ID", "it is empty.");
        const restEndpoint = checkRestEndpoint(options.endpoint ?? (await prompt("REST API Endpoint")));
        const clientSecret = await readSecret("Client Secret");
        await workspace.store.update(workspace.name, (current) => ({
          ...current,
          marketo: { clientId, clientSecret, restEndpoint },
        }));
        process.stderr.write(
          `Marketo connection saved for workspace "${workspace.name}" (secret encrypted at rest).\n`,
        );
      });
    });

  marketo
    .command("show")
    .description("Show the Marketo connection (never the secret).")
    .option("--workspace <name>", "workspace", DEFAULT_WORKSPACE)
    .action(async (options: { workspace: string }) => {
      await withWorkspace(options.workspace, async (workspace) => {
        const credentials = await workspace.marketoCredentials();
        printJson(
          credentials
            ? {
                workspace: workspace.name,
                source: credentials.source,
                clientId: credentials.clientId,
                clientSecret: "set (hidden)",
                restEndpoint: credentials.restEndpoint,
              }
            : { workspace: workspace.name, configured: false },
        );
      });
    });

  marketo
    .command("remove")
    .description("Forget the workspace's stored Marketo connection.")
    .option("--workspace <name>", "workspace", DEFAULT_WORKSPACE)
    .action(async (options: { workspace: string }) => {
      await withWorkspace(options.workspace, async (workspace) => {
        await workspace.store.update(workspace.name, (current) => ({ ...current, marketo: undefined }));
        process.stderr.write(`Marketo connection removed from workspace "${workspace.name}".\n`);
      });
    });
}
