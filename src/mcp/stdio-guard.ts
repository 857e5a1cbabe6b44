import { pipeline, type Readable, Transform, type TransformCallback, type Writable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import {
  ProtocolErrorCode,
  parseJSONRPCMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
} from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

/*
 * The SDK's stdio transport drops a line that is JSON but not a valid JSON-RPC message (a request whose
 * `_meta` or `params` is not an object, say): it reports it to `onerror` and answers nothing, so the
 * client waits for its timeout. JSON-RPC says such a request is answered, with its id when it can be read
 * (https://www.jsonrpc.org/specification#error_object); over HTTP the SDK already answers it (-32600 with
 * the id). Here each line is checked before the transport reads it: a request that does not validate
 * and has a readable id and method is answered; every other line goes on unchanged.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The answer to a line the SDK would drop without one, or undefined to let the line through. */
export function refusalOf(line: string): Json | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  try {
    parseJSONRPCMessage(value);
    return undefined;
  } catch {
    // Not a JSON-RPC message: answered below when it is a request we can reply to.
  }
  if (!isObject(value) || typeof value.method !== "string") return undefined;
  const id = value.id;
  if (!(typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)))) return undefined;
  const method = value.method.slice(0, 64);
  const { params } = value;
  const error =
    params !== undefined && !isObject(params)
      ? { code: ProtocolErrorCode.InvalidParams, message: `${method} needs params to be an object.` }
      : isObject(params) && params._meta !== undefined && !isObject(params._meta)
        ? { code: ProtocolErrorCode.InvalidParams, message: `${method} needs params._meta to be an object.` }
        : {
            code: ProtocolErrorCode.InvalidRequest,
            message: `The ${method} request is not a valid JSON-RPC 2.0 request.`,
          };
  return { jsonrpc: "2.0", id, error };
}

/** Lines of stdin, each either passed on to the transport or answered on stdout. */
class CheckedLines extends Transform {
  readonly #decoder = new StringDecoder("utf8");
  readonly #answer: (message: Json) => void;
  #pending = "";
  /** A line longer than the SDK accepts is passed on as it comes: the transport refuses it itself. */
  #passing = false;

  constructor(answer: (message: Json) => void) {
    super();
    this.#answer = answer;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let text = this.#decoder.write(chunk);
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n")) {
      this.#line(text.slice(0, end + 1));
      text = text.slice(end + 1);
    }
    if (this.#passing) this.push(text);
    else this.#pending += text;
    if (this.#pending.length > STDIO_DEFAULT_MAX_BUFFER_SIZE) {
      this.push(this.#pending);
      this.#pending = "";
      this.#passing = true;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    const rest = this.#pending + this.#decoder.end();
    if (rest) this.push(rest);
    done();
  }

  #line(part: string): void {
    if (this.#passing) {
      this.#passing = false;
      this.push(part);
      return;
    }
    const line = this.#pending + part;
    this.#pending = "";
    const refusal = refusalOf(line.replace(/\r?\n$/, ""));
    if (refusal) this.#answer(refusal);
    else this.push(line);
  }
}

/**
 * The stdio transport of `serve`, answering the requests the SDK would drop. Answers are written as one
 * line each, as the transport writes its own, so the two never interleave within a line.
 */
export function checkedStdioTransport(
  stdin: Readable = process.stdin,
  stdout: Writable = process.stdout,
): StdioServerTransport {
  const lines = new CheckedLines((message) => stdout.write(`${JSON.stringify(message)}\n`));
  // An error or the end of stdin ends the lines, and the transport closes as it would on stdin.
  pipeline(stdin, lines, () => undefined);
  return new StdioServerTransport(lines, stdout);
}
