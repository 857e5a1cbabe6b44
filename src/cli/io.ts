import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { ValidationError } from "../errors.js";

/** Reads all of stdin (for secrets piped in: `printf %s "$SECRET" | martech-steps marketo configure`). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Reads a secret from stdin when it is piped, or from a prompt that does not echo. Never from a flag:
 * flag values land in shell history and in `ps` output.
 */
export async function readSecret(label: string): Promise<string> {
  let value: string;
  if (!process.stdin.isTTY) {
    value = (await readStdin()).trim();
  } else {
    const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
    process.stderr.write(`${label}: `);
    const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
    value = await new Promise<string>((resolve) => rl.question("", (answer) => resolve(answer.trim())));
    rl.close();
    process.stderr.write("\n");
  }
  if (!value)
    throw new ValidationError(label, "it is empty.", { hint: "Pipe it on stdin or type it at the prompt." });
  return value;
}

/**
 * Reads a plain value from a prompt (echoed), for fields that are not secret, naming the flag that
 * gives it instead. Only from a terminal: piped stdin carries the secret, and a closed stdin would
 * leave the question unanswered and the command exiting 0 having saved nothing.
 */
export async function prompt(label: string, flag: string): Promise<string> {
  const missing = new ValidationError(flag, `${label} is required.`, {
    hint: `Give it with ${flag} (stdin is read for the secret only).`,
  });
  if (!process.stdin.isTTY) throw missing;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await new Promise<string>((resolve, reject) => {
      rl.question(`${label}: `, (answer) => resolve(answer.trim()));
      // Ctrl-D (end of input) before an answer: say what was missing rather than exit in silence.
      rl.once("close", () => reject(missing));
    });
  } finally {
    rl.close();
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
