/**
 * A stringFilter's regular expression read as Google reads it, run as a JavaScript RegExp. The sandbox reads it
 * as RE2 (https://github.com/google/re2/wiki/Syntax). That is an assumption: the Data API's reference says only
 * "Full/Partial match for the regular expression" (StringFilter.MatchType, https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/FilterExpression#matchtype)
 * and names no engine; Google documents RE2 for its other report tools (Looker Studio's REGEXP_MATCH,
 * https://support.google.com/looker-studio/answer/7050487). RE2 differs from JavaScript's RegExp both ways: RE2 takes flags written in the pattern, `(?i)demo` (agent trial 2026-12-03-s9, N41: refused
 * here, a JavaScript syntax error), and refuses what needs backtracking, lookaround and backreferences,
 * which JavaScript runs. So the pattern is read first: a leading `(?ims)` becomes the RegExp's flags,
 * RE2's spellings JavaScript lacks are rewritten (`(?P<name>`, `\A`, `\z`, `\Q…\E`), and what RE2 refuses
 * is refused with RE2's own error text (re2/regexp.cc's kErrorStrings, with the text it names). Flags
 * anywhere else, `(?i:…)`, and `(?U)` RE2 takes but Node 20's RegExp cannot scope or has no match for:
 * they are refused as the sandbox's limit (SandboxLimit), saying Google takes them.
 */

/** What RE2 refuses, in RE2's words ("invalid perl operator: (?="). */
export class Re2Refusal extends Error {}
/** What RE2 takes and this sandbox cannot run faithfully: not an error of the pattern's. */
export class SandboxLimit extends Error {}

const FLAGS: Record<string, string> = { i: "i", m: "m", s: "s" };

/** The leading `(?flags)` groups RE2 applies to the whole pattern, as RegExp flags. */
function leadingFlags(value: string): { flags: Set<string>; rest: string } {
  const flags = new Set<string>();
  let rest = value;
  for (let group = /^\(\?([ims]+)\)/.exec(rest); group; group = /^\(\?([ims]+)\)/.exec(rest)) {
    for (const flag of group[1] ?? "") flags.add(FLAGS[flag] ?? "");
    rest = rest.slice(group[0].length);
  }
  return { flags, rest };
}

/** Text as literal characters, in a form a RegExp with the u flag reads anywhere (it refuses `\-`, `\"`). */
const literal = (text: string): string =>
  [...text]
    .map((c) => (/[A-Za-z0-9 ]/.test(c) ? c : `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`))
    .join("");

/** Letters RE2 reads after a backslash (re2/parse.cc); any other, and a single digit, it refuses. */
const RE2_ESCAPES = new Set([..."afnrtvxdDsSwWbBAzCQEpP0"]);

/** One `\x` outside a class: the JavaScript it reads as, and how many characters it took. */
function outsideEscape(rest: string): [string, number] {
  const next = rest[1] ?? "";
  if (/^[A-Za-z0-9]$/.test(next) && !RE2_ESCAPES.has(next)) {
    throw new Re2Refusal(`invalid escape sequence: \\${next}`);
  }
  if (next === "A") return ["(?<![\\s\\S])", 2];
  if (next === "z") return ["(?![\\s\\S])", 2];
  if (next === "a") return ["\\x07", 2];
  if (next === "Q") {
    const end = rest.indexOf("\\E", 2);
    const quoted = end < 0 ? rest.slice(2) : rest.slice(2, end);
    return [literal(quoted), end < 0 ? rest.length : end + 2];
  }
  // \pL is \p{L} to RegExp; \p{Greek} is taken whole (RegExp reads categories so, not scripts).
  if (/^\\[pP][A-Z]/.test(rest)) return [`\\${next}{${rest[2]}}`, 3];
  const named = /^\\[pP]\{[^}]*\}/.exec(rest)?.[0];
  if (named) return [named, named.length];
  // RE2 takes any punctuation escaped; RegExp with the u flag only its own syntax characters.
  if (/^[!-/:-@[-`{-~]$/.test(next)) return [literal(next), 2];
  return [rest.slice(0, 2), 2];
}

/** One `\x` inside a class: punctuation as a literal, the rest as RegExp reads it. */
function classEscape(rest: string): [string, number] {
  const next = rest[1] ?? "";
  return /^[!-/:-@[-`{-~]$/.test(next) ? [literal(next), 2] : [rest.slice(0, 2), 2];
}

/** One `(?…` group opener: the JavaScript it reads as, and how many characters it took. */
function groupOpener(rest: string): [string, number] {
  const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
  if (named) return [`(?<${named[1]}>`, named[0].length];
  if (rest.startsWith("(?:")) return ["(?:", 3];
  if (/^\(\?-?[imsU]+-?[imsU]*[:)]/.test(rest)) {
    throw new SandboxLimit(
      `flags other than a leading (?i), (?m), (?s) group, such as ${rest.slice(0, rest.search(/[:)]/) + 1)}; ` +
        "write the flags at the very start",
    );
  }
  if (/^\(\?(P|<[^=!])/.test(rest)) {
    throw new Re2Refusal(`invalid named capture group: ${rest.slice(0, rest.indexOf(")") + 1 || undefined)}`);
  }
  const opener = rest.startsWith("(?<") ? rest.slice(0, 4) : rest.slice(0, 3);
  throw new Re2Refusal(`invalid perl operator: ${opener}`);
}

/** RE2's POSIX classes, `[[:alpha:]]`, as the ranges they stand for inside a class. */
const POSIX: Record<string, string> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x7F",
  blank: "\\t ",
  cntrl: "\\x00-\\x1F\\x7F",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-/:-@\\[-`{-~",
  space: "\\t\\n\\v\\f\\r ",
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f",
};

/** One character or escape inside a class. */
function inClass(rest: string): [string, number] {
  if (rest.startsWith("\\")) return classEscape(rest);
  const posix = /^\[:(\^?)([a-z]+):\]/.exec(rest);
  if (!posix) return [rest[0] === "[" ? "\\[" : (rest[0] as string), 1];
  const ranges = POSIX[posix[2] ?? ""];
  if (ranges === undefined) throw new Re2Refusal(`invalid character class range: ${posix[0]}`);
  if (posix[1]) throw new SandboxLimit(`a negated POSIX class, ${posix[0]}`);
  return [ranges, posix[0].length];
}

/** One character, escape or group opener outside a class. */
function outsideClass(rest: string): [string, number] {
  const char = rest[0] as string;
  if (char === "\\") return outsideEscape(rest);
  if (rest.startsWith("(?")) return groupOpener(rest);
  if (char === "{") {
    // RE2 reads a { that starts no repetition as itself; RegExp's u flag refuses it, and a lone } or ].
    const repeat = /^\{\d+(,\d*)?\}/.exec(rest)?.[0];
    return repeat ? [repeat, repeat.length] : ["\\{", 1];
  }
  if (char === "}" || char === "]") return [`\\${char}`, 1];
  return [char, 1];
}

/** The pattern after its leading flags, rewritten for RegExp; RE2's refusals thrown as Re2Refusal. */
function translate(pattern: string): string {
  let out = "";
  let classOpen = false;
  let i = 0;
  while (i < pattern.length) {
    const rest = pattern.slice(i);
    let taken: [string, number];
    if (classOpen && rest[0] === "]") {
      classOpen = false;
      taken = ["]", 1];
    } else if (classOpen) taken = inClass(rest);
    else if (rest[0] === "[") {
      classOpen = true;
      // A ] first in a class (after ^) is a literal one, in RE2 as in POSIX.
      const head = /^\[\^?\]?/.exec(rest)?.[0] ?? "[";
      taken = [head.length > 1 && head.endsWith("]") ? `${head.slice(0, -1)}\\]` : head, head.length];
    } else taken = outsideClass(rest);
    out += taken[0];
    i += taken[1];
  }
  return out;
}

/**
 * `value` as a RegExp testing a whole value (FULL_REGEXP) or any part of it (PARTIAL_REGEXP). A full match
 * is anchored to the text's ends, not to lines, so a leading (?m) keeps it whole. Throws Re2Refusal with
 * RE2's words for what RE2 refuses, and JavaScript's SyntaxError for what neither reads.
 */
export function re2Pattern(value: string, o: { full: boolean; caseSensitive: boolean }): RegExp {
  const { flags, rest } = leadingFlags(value);
  if (!o.caseSensitive) flags.add("i");
  const body = translate(rest);
  const source = o.full ? `(?<![\\s\\S])(?:${body})(?![\\s\\S])` : body;
  return new RegExp(source, `u${[...flags].join("")}`);
}
