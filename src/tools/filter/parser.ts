import type { Comparison, Condition, Expression, Literal, TextMatch } from "./ast.js";
import { type FilterSource, filterSyntaxError, type Token, tokenize } from "./lexer.js";
import { isShiftSign, readShift } from "./shift.js";

/**
 * Parses the filter syntax Run Reports' `filter` and Marketo API Call's `where` share:
 *
 *   expr  := and ("or" and)*          and := unary ("and" unary)*      unary := "not" unary | "(" expr ")" | cond
 *   field := name | dotted.path | "quoted name"
 *   cond  := field ("==" | "!=" | "<" | "<=" | ">" | ">=") value | field ["not"] "in" "(" value, … ")"
 *          | field ("contains" | "begins_with" | "ends_with" | "matches" | "=~") text
 *          | field "between" number "and" number (records: or two quoted values) | field "is" ["not"] "empty"
 *          | field ("==" | "!=" | "<" | "<=" | ">" | ">=") field [("+" | "-") number [unit]]
 *            (records only: camelCase or dotted, isFieldName; a unit, m h d w, shifts a time, none a number)
 *
 * A chain such as `a and b and c` becomes one group; parentheses make a nested group, so printing a tree
 * with parenthesized sub-groups and parsing it back gives the same tree. Keywords are case-insensitive.
 * Any malformed input fails with a ValidationError naming the position.
 *
 * Two dialects: GA's (what a GA FilterExpression can say: `<`, `>` compare numbers, lists hold text, regular
 * expressions run at Google) and records' (evaluated here on records read: `<`, `>` also compare dates and
 * text, lists hold numbers too, true/false/null are values, a camelCase name or a dotted path after the operator is
 * another field of the same record (`joined.later > joined.earlier`: trial s38, N553, where an agent computed each
 * member's rise by hand; isFieldName);
 * no regular expressions, which this process would run on every record: a pattern that backtracks could stall it).
 */
export interface Dialect {
  /** `<`, `<=`, `>`, `>=` with a quoted value (dates, text). */
  compareText: boolean;
  /** Numbers inside `in (...)`, and true / false / null as values. */
  recordValues: boolean;
  /** `matches` and `=~`. */
  regex: boolean;
}

export const GA_DIALECT: Dialect = { compareText: false, recordValues: false, regex: true };
export const RECORDS_DIALECT: Dialect = { compareText: true, recordValues: true, regex: false };

const MAX_DEPTH = 32;
const INT64_MAX = 2n ** 63n - 1n;
const KEYWORDS = new Set(["and", "or", "not", "in", "between", "is", "empty", ...["contains", "matches"]]);
const TEXT_OPS: Record<string, TextMatch> = {
  contains: "contains",
  begins_with: "begins_with",
  starts_with: "begins_with",
  ends_with: "ends_with",
  matches: "full_regex",
  "=~": "partial_regex",
};
const ORDER_OPS: Record<string, Comparison> = { "<": "lt", "<=": "le", ">": "gt", ">=": "ge" };

/**
 * A bare word after an operator that names another field: a camelCase name (createdAt, leadScore: a capital inside)
 * or a dotted path (joined.total, attributes."New Value"). Any other bare word is a text written without its quotes,
 * refused where it stands, before anything is read: a capitalised one (Website: review s48, 3) and a plain lowercase
 * one too, which may be a value and a field's name at once (utmMedium == email compared with the email field,
 * silently: review s49, 1). A one-word field is compared by putting it first (email == utmMedium).
 */
export function isFieldName(word: string): boolean {
  if (isFilterKeyword(word) || /^(true|false|null)$/i.test(word)) return false;
  return /^[a-z_][A-Za-z0-9_]*\.\S/.test(word) || /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9_]*$/.test(word);
}

/** What a bare word most likely meant: the text (the words that follow it too, "Trade Show"), quoted. */
function quoteIt(words: readonly string[], op = "==", shifted = false): string {
  if (words.length === 0) return "";
  const text = JSON.stringify(words.join(" "));
  const one = words.length === 1 && /^[a-z][a-z0-9_]*$/.test(words[0] as string);
  // Put first, an ordering turns round (leadScore > score is score < leadScore: review s51, 5), a shift's sign too.
  const turned = TURNED[op] ?? op;
  return (
    ` (a text is quoted: ${text}; a field after an operator is a camelCase name or a dotted path, e.g. createdAt or joined.total` +
    `${one ? `; to compare with the field ${words[0]}, put it first: ${words[0]} ${turned} <the other field>${turned === op ? "" : " (the operator turned)"}${shifted ? ", the shift's sign turned" : ""}` : ""})`
  );
}

const TURNED: Record<string, string> = { "<": ">", "<=": ">=", ">": "<", ">=": "<=" };

export function isFilterKeyword(word: string): boolean {
  return KEYWORDS.has(word.toLowerCase()) || word.toLowerCase() in TEXT_OPS;
}

export function parseExpression(source: string, at: FilterSource, dialect: Dialect): Expression {
  return new Parser(source, at, dialect).parse();
}

const not = (expression: Expression): Expression => ({ kind: "not", of: expression });

class Parser {
  readonly #source: string;
  readonly #at: FilterSource;
  readonly #dialect: Dialect;
  readonly #tokens: Token[];
  #index = 0;
  #depth = 0;

  constructor(source: string, at: FilterSource, dialect: Dialect) {
    this.#source = source;
    this.#at = at;
    this.#dialect = dialect;
    this.#tokens = tokenize(source, at);
  }

  parse(): Expression {
    if (this.#peek().kind === "end") throw this.#error("the filter is empty");
    const expression = this.#or();
    if (this.#peek().kind !== "end") throw this.#error("expected and, or or the end of the filter");
    return expression;
  }

  #peek(): Token {
    return this.#tokens[this.#index] as Token;
  }

  #next(): Token {
    const token = this.#peek();
    if (token.kind !== "end") this.#index += 1;
    return token;
  }

  #error(message: string, token: Token = this.#peek()) {
    return filterSyntaxError(message, this.#source, token.pos, this.#at);
  }

  #isWord(word: string, token: Token = this.#peek()): boolean {
    return token.kind === "word" && token.text.toLowerCase() === word;
  }

  /** A bare word and the bare words after it, up to an operator, a keyword or the end ("Trade Show"). */
  #wordsFrom(token: Token): string[] {
    if (token.kind !== "word" || isFilterKeyword(token.text)) return [];
    const words = [token.text];
    for (let at = this.#index; ; at += 1) {
      const next = this.#tokens[at];
      if (next?.kind !== "word" || isFilterKeyword(next.text)) return words;
      words.push(next.text);
    }
  }

  #expectPunct(text: "(" | ")" | ",") {
    const token = this.#next();
    if (token.kind !== "punct" || token.text !== text) throw this.#error(`expected "${text}"`, token);
  }

  #group(kind: "and" | "or", item: () => Expression): Expression {
    const of = [item()];
    while (this.#isWord(kind)) {
      this.#next();
      of.push(item());
    }
    return of.length === 1 ? (of[0] as Expression) : { kind, of };
  }

  #or(): Expression {
    return this.#group("or", () => this.#group("and", () => this.#unary()));
  }

  #unary(): Expression {
    if (++this.#depth > MAX_DEPTH) throw this.#error(`the filter nests deeper than ${MAX_DEPTH} levels`);
    try {
      if (this.#isWord("not")) {
        this.#next();
        return not(this.#unary());
      }
      const token = this.#peek();
      if (token.kind === "punct" && token.text === "(") {
        this.#next();
        const inner = this.#or();
        this.#expectPunct(")");
        return inner;
      }
      return this.#condition();
    } finally {
      this.#depth -= 1;
    }
  }

  #condition(): Expression {
    const token = this.#next();
    // A quoted field name reads a name with spaces or other characters ("Import Failure Reason" contains "email").
    if (token.kind === "string" && token.value !== "") return this.#after(token.value);
    if (token.kind !== "word" || isFilterKeyword(token.text))
      throw this.#error("expected a field name (a name, a dotted path, or a quoted name)", token);
    return this.#after(token.text);
  }

  #after(field: string): Expression {
    const op = this.#next();
    // createdAt - 24h <= joinedAt (review s51, 5): the shift goes on the second field, its sign turned.
    if (isShiftSign(op))
      throw this.#error(
        `a shift (+ or - a span) moves the field after the operator, not ${field}: e.g. ${field} <= joinedAt + 24h for ${field} - 24h <= joinedAt`,
        op,
      );
    const opText = op.kind === "word" ? op.text.toLowerCase() : op.kind === "op" ? op.text : "";
    if (opText === "==" || opText === "=" || opText === "!=") {
      const expression = this.#equality(field);
      return opText === "!=" ? not(expression) : expression;
    }
    if (opText in ORDER_OPS) return this.#ordering(field, ORDER_OPS[opText] as Comparison, opText);
    if (opText in TEXT_OPS) {
      const match = TEXT_OPS[opText] as TextMatch;
      if (!this.#dialect.regex && (match === "full_regex" || match === "partial_regex")) {
        throw this.#error(
          `"${opText}" (a regular expression) is not evaluated here: use contains, begins_with, ends_with or in`,
          op,
        );
      }
      const value = this.#next();
      if (value.kind !== "string") throw this.#error(`"${opText}" needs a quoted text`, value);
      return { kind: "match", field, op: match, value: value.value };
    }
    if (opText === "in" || (opText === "not" && this.#isWord("in"))) {
      if (opText === "not") this.#next();
      const condition: Condition = { kind: "in", field, values: this.#list() };
      return opText === "not" ? not(condition) : condition;
    }
    if (opText === "between") return this.#between(field);
    if (opText === "is") return this.#isEmpty(field);
    // A word where the operator goes is most often the rest of a name with a space (trial s10, N75:
    // attributes.New Value), so say how to write that name.
    const spaced =
      op.kind === "word"
        ? `; a name with a space is written in double quotes, e.g. ${JSON.stringify(`${field} ${op.text}`)}`
        : "";
    throw this.#error(
      `expected an operator after ${field} (==, !=, <, >, contains, in, between, is empty…)${spaced}`,
      op,
    );
  }

  #equality(field: string): Expression {
    const value = this.#next();
    if (value.kind === "string")
      return this.#unshifted({
        kind: "compare",
        field,
        op: "eq",
        value: { kind: "text", value: value.value },
      });
    if (value.kind === "number")
      return this.#unshifted({ kind: "compare", field, op: "eq", value: this.#number(value) });
    if (this.#dialect.recordValues && value.kind === "word") {
      const word = value.text.toLowerCase();
      if (word === "null") return { kind: "empty", field };
      if (word === "true" || word === "false")
        return { kind: "compare", field, op: "eq", value: { kind: "text", value: word } };
      if (isFieldName(value.text)) return this.#fields(field, "eq", value.text);
    }
    throw this.#error(
      this.#dialect.recordValues
        ? `expected a quoted text, a number or a field name${quoteIt(this.#wordsFrom(value), "==", this.#signNext())}`
        : "expected a quoted text or a number",
      value,
    );
  }

  #ordering(field: string, op: Comparison, opText: string): Expression {
    const value = this.#next();
    if (value.kind === "number")
      return this.#unshifted({ kind: "compare", field, op, value: this.#number(value) });
    if (value.kind === "string" && this.#dialect.compareText) {
      return this.#unshifted({ kind: "compare", field, op, value: { kind: "text", value: value.value } });
    }
    if (this.#dialect.recordValues && value.kind === "word" && isFieldName(value.text)) {
      return this.#fields(field, op, value.text);
    }
    throw this.#error(
      this.#dialect.compareText
        ? `"${opText}" needs a number, a quoted date or text, or another field's name${quoteIt(this.#wordsFrom(value), opText, this.#signNext())}`
        : `"${opText}" compares numbers: expected a number`,
      value,
    );
  }

  /** Whether a shift's sign comes next. */
  #signNext(): boolean {
    return isShiftSign(this.#peek());
  }

  /** A value with no shift after it: a shift moves a second field, not a value (review s51, 5). */
  #unshifted(condition: Condition): Condition {
    if (this.#dialect.recordValues && this.#signNext())
      throw this.#error(
        "a shift (+ or - a span) moves a second field, not a value: write the value moved (a date a day earlier: the date before it)",
      );
    return condition;
  }

  /** Two fields compared, the second moved by a shift when one follows (`- 24h`, `+ 7 days`, `+ 10`: shift.ts). */
  #fields(field: string, op: Comparison, other: string): Condition {
    const shift = readShift(
      {
        peek: () => this.#peek(),
        next: () => this.#next(),
        fail: (message, token) => this.#error(message, token),
        number: (token) => this.#number(token),
        keyword: isFilterKeyword,
        glued: (token) => token.pos > 0 && !/\s/.test(this.#source[token.pos - 1] ?? ""),
        rest: (token) => /^[^\s),]*/.exec(this.#source.slice(token.pos))?.[0] ?? "",
      },
      other,
    );
    return shift ? { kind: "fields", field, op, other, shift } : { kind: "fields", field, op, other };
  }

  /**
   * `between` two numbers; in records' dialect also two quoted values (dates: "2026-11-19"), read as `>=` the
   * first and `<=` the second, so a date range compares as times in the call's zone (trial s9, third run, N46:
   * dates were refused with "expected a number"). GA's BetweenFilter takes numbers only.
   */
  #between(field: string): Expression {
    const first = this.#next();
    const quoted = this.#dialect.recordValues && first.kind === "string";
    const from: Literal = quoted ? { kind: "text", value: first.value } : this.#number(first);
    if (!this.#isWord("and")) throw this.#error('expected "and" between the two bounds');
    this.#next();
    const last = this.#next();
    if (!quoted) return { kind: "between", field, from, to: this.#number(last) };
    if (last.kind !== "string")
      throw this.#error("expected a quoted value as the second bound, as the first", last);
    return {
      kind: "and",
      of: [
        { kind: "compare", field, op: "ge", value: from },
        { kind: "compare", field, op: "le", value: { kind: "text", value: last.value } },
      ],
    };
  }

  #isEmpty(field: string): Expression {
    const negate = this.#isWord("not");
    if (negate) this.#next();
    if (!this.#isWord("empty")) throw this.#error('expected "empty"');
    this.#next();
    const condition: Condition = { kind: "empty", field };
    return negate ? not(condition) : condition;
  }

  #list(): Literal[] {
    this.#expectPunct("(");
    const values: Literal[] = [];
    for (;;) {
      const value = this.#next();
      if (value.kind === "string") values.push({ kind: "text", value: value.value });
      else if (value.kind === "number" && this.#dialect.recordValues) values.push(this.#number(value));
      else {
        const what = this.#dialect.recordValues ? "a quoted text or a number" : "a quoted text";
        throw this.#error(`expected ${what} in the list`, value);
      }
      const separator = this.#peek();
      if (separator.kind === "punct" && separator.text === ")") break;
      this.#expectPunct(",");
    }
    this.#expectPunct(")");
    return values;
  }

  /** A number token, checked: finite, and an integer within int64 (GA's integer type; no record field holds more). */
  #number(token: Token): Literal {
    if (token.kind !== "number") throw this.#error("expected a number", token);
    if (/[.eE]/.test(token.text)) {
      const value = Number(token.text);
      if (!Number.isFinite(value)) throw this.#error("the number is out of range", token);
      return { kind: "number", text: token.text, value };
    }
    const value = BigInt(token.text);
    if (value > INT64_MAX || value < -INT64_MAX - 1n)
      throw this.#error("the integer is out of the int64 range", token);
    return { kind: "number", text: token.text, value: Number(token.text) };
  }
}
