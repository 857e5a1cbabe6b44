// The only window a trial agent has on martech-steps: an MCP client over Streamable HTTP that prints what a
// model would read (tools/list, a tool result's content blocks, a resource, a prompt) and logs every request
// with the characters it returned. A trial agent runs this and nothing else, so its figures (calls, errors,
// characters read) are an agent's, not a developer's.
//
//   node bench/agent-trials/agent.mjs list
//   node bench/agent-trials/agent.mjs call <tool> '<json arguments>'
//   node bench/agent-trials/agent.mjs read <uri>
//   node bench/agent-trials/agent.mjs prompts | prompt <name> '<json arguments>' | resources
//
// TRIAL_URL is the server's /mcp URL (bench/agent-trials/serve.sh prints it); TRIAL_LOG the JSON-lines log;
// TRIAL_TASK the task id each logged line carries.
import { appendFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = process.env.TRIAL_URL;
const log = process.env.TRIAL_LOG;
const task = process.env.TRIAL_TASK ?? "";

/** What a model reads of a tool result: its content blocks (text, and links by their URI and name). */
function resultText(result) {
  const parts = [];
  for (const block of result.content ?? []) {
    if (block.type === "text") parts.push(block.text);
    else if (block.type === "resource_link") {
      parts.push(`[resource_link ${block.uri} name=${block.name ?? ""} ${block.description ?? ""}]`);
    } else if (block.type === "image")
      parts.push(`[image ${block.mimeType}, ${block.data.length} base64 chars]`);
    else if (block.type === "resource") parts.push(block.resource.text ?? `[resource ${block.resource.uri}]`);
  }
  return `${result.isError ? "ERROR\n" : ""}${parts.join("\n")}`;
}

async function run(client, op, args) {
  switch (op) {
    case "list": {
      const { tools } = await client.listTools();
      return { text: JSON.stringify(tools, null, 1), isError: false };
    }
    case "call": {
      const input = args[1] ? JSON.parse(args[1]) : {};
      const result = await client.callTool({ name: args[0], arguments: input }, undefined, {
        timeout: 600_000,
      });
      return { text: resultText(result), isError: result.isError === true };
    }
    case "read": {
      const { contents } = await client.readResource({ uri: args[0] });
      return { text: contents.map((c) => c.text ?? `[blob ${c.mimeType}]`).join("\n"), isError: false };
    }
    case "resources": {
      const { resources } = await client.listResources();
      return { text: JSON.stringify(resources, null, 1), isError: false };
    }
    case "prompts": {
      const { prompts } = await client.listPrompts();
      return { text: JSON.stringify(prompts, null, 1), isError: false };
    }
    case "prompt": {
      const got = await client.getPrompt({ name: args[0], arguments: args[1] ? JSON.parse(args[1]) : {} });
      return { text: got.messages.map((m) => m.content.text ?? "").join("\n"), isError: false };
    }
    default:
      throw new Error(`unknown operation ${op}: list, call, read, resources, prompts or prompt`);
  }
}

async function main() {
  if (!url)
    throw new Error("TRIAL_URL is not set: run bench/agent-trials/serve.sh and export what it prints");
  const [op, ...args] = process.argv.slice(2);
  const client = new Client({ name: "agent-trial", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  let outcome;
  try {
    outcome = await run(client, op, args);
  } catch (error) {
    outcome = { text: `ERROR (protocol) ${error.message}`, isError: true };
  } finally {
    await client.close();
  }
  process.stdout.write(`${outcome.text}\n`);
  if (log) {
    const line = {
      at: new Date().toISOString(),
      task,
      op,
      args,
      chars: outcome.text.length,
      isError: outcome.isError,
    };
    appendFileSync(log, `${JSON.stringify(line)}\n`);
  }
}

await main();
