import type {
  FilterExpression,
  GaFilter,
  NumericOperation,
  NumericValue,
  StringMatchType,
} from "./filter-expression.js";
import { filterSyntaxError, type Token, tokenize } from "./filter-lexer.js";

/**
 * Parses the simple filter syntax into a GA FilterExpression (REAL-API B2):
 *
 *   expr  := and ("or" and)*          and := unary ("and" unary)*      unary := "not" unary | "(" expr ")" | cond
 *   cond  := field ("==" | "!=" | "<" | "<=" | ">" | ">=") value | field ["not"] "in" "(" text, … ")"
 *          | field ("contains" | "begins_with" | "ends_with" | "matches" | "=~") text
 *          | field "between" number "and" number | field "is" ["not"] "empty"
 *
 * A chain such as `a and b and c` becomes one andGroup; parentheses make a nested group, so printing a
 * tree with parenthesized sub-groups and parsing it back gives the same tree. Keywords are case-insensitive.
 * Any malformed input fails with a ValidationError naming the position.
 */

const MAX_DEPTH = 32;
const INT64_MAX = 2n ** 63n - 1n;
const KEYWORDS = new Set(["and", "or", "not", "in", "between", "is", "empty", ...["contains", "matches"]]);
const STRING_OPS: Record<string, StringMatchType> = {
  contains: "CONTAINS",
  begins_with: "BEGINS_WITH",
  starts_with: "BEGINS_WITH",
  ends_with: "ENDS_WITH",
  matches: "FULL_REGEXP",
  "=~": "PARTIAL_REGEXP",
};
const NUMERIC_OPS: Record<string, NumericOperation> = {
  "==": "EQUAL",
  "=": "EQUAL",
  "<": "LESS_THAN",
  "<=": "LESS_THAN_OR_EQUAL",
  ">": "GREATER_THAN",
  ">=": "GREATER_THAN_OR_EQUAL",
};

export function isFilterKeyword(word: string): boolean {
  return KEYWORDS.has(word.toLowerCase()) || word.toLowerCase() in STRING_OPS;
}

/** `field` names the input field the filter came in, in errors: filter, or dimensionFilter / metricFilter. */
export function parseFilter(source: string, field = "filter"): FilterExpression {
  return new Parser(source, field).parse();
}

const not = (expression: FilterExpression): FilterExpression => ({ notExpression: expression });

class Parser {
  readonly #source: string;
  readonly #field: string;
  readonly #tokens: Token[];
  #index = 0;
  #depth = 0;

  constructor(source: string, field: string) {
    this.#source = source;
    this.#field = field;
    this.#tokens = tokenize(source, field);
  }

  parse(): FilterExpression {
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
    return filterSyntaxError(message, this.#source, token.pos, this.#field);
  }

  #isWord(word: string, token: Token = this.#peek()): boolean {
    return token.kind === "word" && token.text.toLowerCase() === word;
  }

  #expectPunct(text: "(" | ")" | ",") {
    const token = this.#next();
    if (token.kind !== "punct" || token.text !== text) throw this.#error(`expected "${text}"`, token);
  }

  #group(kind: "and" | "or", item: () => FilterExpression): FilterExpression {
    const expressions = [item()];
    while (this.#isWord(kind)) {
      this.#next();
      expressions.push(item());
    }
    if (expressions.length === 1) return expressions[0] as FilterExpression;
    return kind === "and" ? { andGroup: { expressions } } : { orGroup: { expressions } };
  }

  #or(): FilterExpression {
    return this.#group("or", () => this.#group("and", () => this.#unary()));
  }

  #unary(): FilterExpression {
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

  #condition(): FilterExpression {
    const field = this.#next();
    if (field.kind !== "word" || isFilterKeyword(field.text))
      throw this.#error("expected a field name", field);
    const fieldName = field.text;
    const leaf = (filter: Omit<GaFilter, "fieldName">): FilterExpression => ({
      filter: { fieldName, ...filter } as GaFilter,
    });
    const op = this.#next();
    const opText = op.kind === "word" ? op.text.toLowerCase() : op.kind === "op" ? op.text : "";
    if (opText === "==" || opText === "=" || opText === "!=") {
      const value = this.#next();
      let expression: FilterExpression;
      if (value.kind === "string")
        expression = leaf({ stringFilter: { matchType: "EXACT", value: value.value } });
      else if (value.kind === "number") {
        expression = leaf({ numericFilter: { operation: "EQUAL", value: this.#numeric(value) } });
      } else throw this.#error("expected a quoted text or a number", value);
      return opText === "!=" ? not(expression) : expression;
    }
    if (opText in NUMERIC_OPS) {
      const value = this.#next();
      if (value.kind !== "number")
        throw this.#error(`"${opText}" compares numbers: expected a number`, value);
      return leaf({
        numericFilter: { operation: NUMERIC_OPS[opText] as NumericOperation, value: this.#numeric(value) },
      });
    }
    if (opText in STRING_OPS) {
      const value = this.#next();
      if (value.kind !== "string") throw this.#error(`"${opText}" needs a quoted text`, value);
      return leaf({ stringFilter: { matchType: STRING_OPS[opText] as StringMatchType, value: value.value } });
    }
    if (opText === "in" || (opText === "not" && this.#isWord("in"))) {
      if (opText === "not") this.#next();
      const values = this.#textList();
      return opText === "not" ? not(leaf({ inListFilter: { values } })) : leaf({ inListFilter: { values } });
    }
    if (opText === "between") {
      const from = this.#numberToken();
      if (!this.#isWord("and")) throw this.#error('expected "and" between the two bounds');
      this.#next();
      return leaf({
        betweenFilter: { fromValue: this.#numeric(from), toValue: this.#numeric(this.#numberToken()) },
      });
    }
    if (opText === "is") {
      const negate = this.#isWord("not");
      if (negate) this.#next();
      if (!this.#isWord("empty")) throw this.#error('expected "empty"');
      this.#next();
      const expression = leaf({ emptyFilter: {} });
      return negate ? not(expression) : expression;
    }
    throw this.#error(
      `expected an operator after ${fieldName} (==, !=, <, >, contains, in, between, is empty…)`,
      op,
    );
  }

  #textList(): string[] {
    this.#expectPunct("(");
    const values: string[] = [];
    for (;;) {
      const value = this.#next();
      if (value.kind !== "string") throw this.#error("expected a quoted text in the list", value);
      values.push(value.value);
      const separator = this.#peek();
      if (separator.kind === "punct" && separator.text === ")") break;
      this.#expectPunct(",");
    }
    this.#expectPunct(")");
    return values;
  }

  #numberToken(): Token & { kind: "number" } {
    const token = this.#next();
    if (token.kind !== "number") throw this.#error("expected a number", token);
    return token;
  }

  /** Integers become int64Value strings (GA's int64 encoding), others doubleValue. */
  #numeric(token: Token & { kind: "number" }): NumericValue {
    if (/[.eE]/.test(token.text)) {
      const value = Number(token.text);
      if (!Number.isFinite(value)) throw this.#error("the number is out of range", token);
      return { doubleValue: value };
    }
    const value = BigInt(token.text);
    if (value > INT64_MAX || value < -INT64_MAX - 1n)
      throw this.#error("the integer is out of the int64 range", token);
    return { int64Value: value.toString() };
  }
}
