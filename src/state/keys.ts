/**
 * The one way every key of the shared state is named: `{<scope>}:<part>:<part>…`, the scope in a hash tag.
 *
 * Redis Cluster puts a key in a slot by the CRC16 of its hash tag, the text between its first `{` and the
 * next `}`, when there is one (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/#hash-tags),
 * and a script may touch only keys of one slot: a script over keys of several slots fails with CROSSSLOT.
 * So every key of one shared scope (a Marketo instance: its window, in-flight slots, days and token) carries
 * the same tag, and the scripts that take several keys (admitting a call, finishing it) run on one node.
 * A `{` or `}` in a scope (and `%`, so that the escape stays one to one) is percent-encoded: one would end
 * the tag early, and a scope that holds another as its start would share its slot by chance.
 */
export function sharedKey(scope: string, ...parts: (string | number)[]): string {
  return [hashTag(scope), ...parts].join(":");
}

/** `{scope}`: a scope as a hash tag (for a key whose layout puts a prefix before it). */
export function hashTag(scope: string): string {
  // An empty tag ("{}") is no tag: Redis would hash the whole key. A programming error, never an input.
  if (scope === "") throw new TypeError("A shared state scope is never empty.");
  return `{${scope.replace(/[{}%]/g, (c) => encodeURIComponent(c))}}`;
}
