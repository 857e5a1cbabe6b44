/**
 * GA4's event names in words (newcomer trial 2026-12-02-s5, finding 5: a funnel's steps were offered and
 * shown only as codes, `add_to_cart`, `begin_checkout`). The events GA4 collects by itself and those it
 * recommends have documented meanings: automatically collected and enhanced measurement events,
 * https://support.google.com/analytics/answer/9234069; recommended events,
 * https://developers.google.com/analytics/devguides/collection/ga4/reference/events. A property's own
 * events have no such words and show as they are.
 */
const WORDS: Readonly<Record<string, string>> = {
  // Collected automatically, or by enhanced measurement.
  first_visit: "First visit",
  session_start: "Session start",
  user_engagement: "User engagement",
  page_view: "Page view",
  scroll: "Scroll",
  click: "Outbound click",
  view_search_results: "Site search",
  video_start: "Video start",
  video_progress: "Video progress",
  video_complete: "Video complete",
  file_download: "File download",
  form_start: "Form start",
  form_submit: "Form submit",
  first_open: "First open",
  // Recommended for every property, for lead generation and for online sales.
  login: "Log in",
  sign_up: "Sign up",
  search: "Search",
  share: "Share",
  select_content: "Select content",
  generate_lead: "Generate lead",
  qualify_lead: "Qualify lead",
  working_lead: "Working lead",
  close_convert_lead: "Close convert lead",
  close_unconvert_lead: "Close unconvert lead",
  disqualify_lead: "Disqualify lead",
  view_item_list: "View item list",
  select_item: "Select item",
  view_item: "View item",
  add_to_wishlist: "Add to wishlist",
  add_to_cart: "Add to cart",
  remove_from_cart: "Remove from cart",
  view_cart: "View cart",
  begin_checkout: "Begin checkout",
  add_shipping_info: "Add shipping info",
  add_payment_info: "Add payment info",
  purchase: "Purchase",
  refund: "Refund",
  view_promotion: "View promotion",
  select_promotion: "Select promotion",
};

/**
 * "Add to cart" for an event GA4 documents, the name itself for a property's own: where the code beside it
 * would only lengthen a line a person reads (the funnel chart's labels: console review s13, finding 3).
 */
export function eventName(name: string): string {
  return WORDS[name] ?? name;
}

/** "Add to cart (add_to_cart)" for an event GA4 documents, the name itself for a property's own. */
export function eventWords(name: string): string {
  const words = WORDS[name];
  return words ? `${words} (${name})` : name;
}

/**
 * A funnel's sentence with each documented event name in words, the name kept beside ("who did
 * session_start" → "who did Session start (session_start)"): a name with an underscore anywhere, a one-word
 * name ("purchase", "search") only where the sentence names a step (after did, reached, at, from, to),
 * since elsewhere it may be plain English.
 */
export function withEventWords(text: string): string {
  const named = (word: string) => (WORDS[word] ? eventWords(word) : word);
  return text
    .replace(/\b(did|reached|at|from|to) ([a-z]+)\b(?!_)/g, (all, before: string, word: string) =>
      WORDS[word] ? `${before} ${eventWords(word)}` : all,
    )
    .replace(/(?<![(\w])[a-z]+(?:_[a-z]+)+\b(?!\))/g, named);
}
