import type { Interface } from "node:readline";
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
    // Loaded here: commands that never prompt (serve among them) start without readline and streams.
    const [{ createInterface }, { Writable }] = await Promise.all([
      import("node:readline"),
      import("node:stream"),
    ]);
    const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
    process.stderr.write(`${label}: `);
    const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
    // Ctrl-D before an answer reads as empty, which is refused below.
    value = await ask(rl, "", () => "").finally(() => process.stderr.write("\n"));
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
  const { createInterface } = await import("node:readline");
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  // Ctrl-D (end of input) before an answer: say what was missing rather than exit in silence.
  return ask(rl, `${label}: `, () => {
    throw missing;
  });
}

/**
 * One question on the terminal. A terminal-mode readline swallows Ctrl-C (it only pauses the
 * input, so the command waited forever): here Ctrl-C stops the command as it does anywhere else,
 * and end of input (Ctrl-D) answers with `ended()`. The terminal's handle is let go after the
 * question (it kept the process running after an error), and taken again by the next one.
 */
function ask(rl: Interface, query: string, ended: () => string): Promise<string> {
  const input = process.stdin as NodeJS.ReadStream & { ref?: () => void; unref?: () => void };
  input.ref?.();
  return new Promise<string>((resolve, reject) => {
    let answered = false;
    rl.once("SIGINT", () => {
      // Nothing has been saved yet: stop as an interrupted command does (128 + SIGINT).
      answered = true;
      rl.close();
      process.stderr.write("\n");
      process.exit(130);
    });
    rl.once("close", () => {
      if (answered) return;
      try {
        resolve(ended());
      } catch (error) {
        reject(error);
      }
    });
    rl.question(query, (answer) => {
      answered = true;
      resolve(answer.trim());
      rl.close();
    });
  }).finally(() => {
    input.pause();
    input.unref?.();
  });
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
