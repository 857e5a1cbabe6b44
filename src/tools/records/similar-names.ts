/**
 * Which existing names are like a name asked for, most alike first, and only those: a "did you mean" that
 * offers an unrelated name (the nearest by raw edit distance of "Q1 Webinar Invitees" was "Beta Testers")
 * leads an agent to act on the wrong record. Two measures, case-insensitive: the words the names share
 * (a word alike when at most a quarter of its letters differ, so "Registrant" is "Registrants"), and the
 * edit distance of the whole names with spaces and punctuation left out (a typo, "WebinarRegistrantsQ3").
 */
import { distance } from "fastest-levenshtein";

/** Two words are alike at this closeness (1 - edits / longer length): one letter off in four. */
const WORD_ALIKE = 0.75;
/** Whole names are alike at this closeness: a few letters off in ten. */
const SPELLED_ALIKE = 0.7;
/** A name is like another when this share of its words is found in the other (one word of three). */
const WORDS_SHARED = 1 / 3;

/** A name's words, lower-cased: split at what is not a letter or digit and where camelCase humps ("lastName"). */
export function nameWords(name: string): string[] {
  return name
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

function closeness(a: string, b: string): number {
  if (a === b) return 1;
  return 1 - distance(a, b) / Math.max(a.length, b.length);
}

/** Each asked word matched with at most one candidate word, the closest alike one; the sum of the closeness. */
function sharedWeight(asked: readonly string[], candidate: readonly string[]): number {
  const free = [...candidate];
  let weight = 0;
  for (const word of asked) {
    let best = -1;
    let bestCloseness = 0;
    free.forEach((other, i) => {
      const near = closeness(word, other);
      if (near >= WORD_ALIKE && near > bestCloseness) {
        best = i;
        bestCloseness = near;
      }
    });
    if (best < 0) continue;
    weight += bestCloseness;
    free.splice(best, 1);
  }
  return weight;
}

export interface Likeness {
  /** 0 (nothing alike) to 1 (the same words). */
  score: number;
  /** The whole names' closeness, which breaks ties. */
  spelled: number;
  /** Whether the candidate is like the name at all. */
  alike: boolean;
}

/** How alike a candidate is to the name asked for. */
export function likeness(name: string, candidate: string): Likeness {
  const asked = nameWords(name);
  const words = nameWords(candidate);
  if (asked.length === 0 || words.length === 0) return { score: 0, spelled: 0, alike: false };
  const shared = sharedWeight(asked, words);
  const spelled = closeness(asked.join(""), words.join(""));
  const score = Math.max((2 * shared) / (asked.length + words.length), spelled);
  const alike = spelled >= SPELLED_ALIKE || shared / asked.length >= WORDS_SHARED - 1e-9;
  return { score, spelled, alike };
}

/** The candidates like `name`, most alike first (ties by spelling, then alphabetically); the others left out. */
export function alikeFirst(name: string, candidates: readonly string[]): string[] {
  return [...new Set(candidates)]
    .map((candidate) => ({ candidate, ...likeness(name, candidate) }))
    .filter(({ alike }) => alike)
    .sort((a, b) => b.score - a.score || b.spelled - a.spelled || a.candidate.localeCompare(b.candidate))
    .map(({ candidate }) => candidate);
}

/**
 * The candidates that share at least one word with `name` (a word alike as above), most shared first, ties
 * alphabetically: when none is alike as a whole ("2027-01 Webinar – Product Update" shares only "Webinar" with
 * "Webinar 08"), these are still the ones a person would look at first (agent trial s10, N67). Words of
 * digits only are left out of the name asked for.
 */
export function sharingAWord(name: string, candidates: readonly string[]): string[] {
  // A number alone is no sign of likeness: "2027-01 Webinar" shares "01" with "Email Program 01".
  const asked = nameWords(name).filter((word) => !/^\p{N}+$/u.test(word));
  return [...new Set(candidates)]
    .map((candidate) => ({ candidate, shared: sharedWeight(asked, nameWords(candidate)) }))
    .filter(({ shared }) => shared > 0)
    .sort((a, b) => b.shared - a.shared || a.candidate.localeCompare(b.candidate))
    .map(({ candidate }) => candidate);
}
