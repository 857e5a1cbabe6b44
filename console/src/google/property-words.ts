/**
 * A GA4 property as the page names it: by its display name, its id in parentheses, "Retail Web Store
 * (412345671)", as the form's Property picker lists it. Run Reports' own summary (the headline of a report
 * of one period) and its chart's subtitle say "properties/412345671", the API's name for it, alone when the
 * step could not read the display name (trial 2026-12-02-s8, maintainers' review). The page knows the names
 * from the account summaries the picker reads.
 */

/** A name's id in parentheses after it, as the step writes it: "Retail Web Store (properties/412345671)". */
const AFTER_NAME = / \(properties\/(\d+)\)/g;
/** The resource name alone, not a request's path ("properties/412345671/googleAdsLinks" stays). */
const ALONE = /\bproperties\/(\d+)(?![\d/])/g;

/**
 * The text with each property in words: "Retail Web Store (properties/412345671)" becomes "Retail Web
 * Store (412345671)"; "properties/412345671" alone becomes "Retail Web Store (412345671)" when `names`
 * (id → display name) has it, else "property 412345671" ("Property …" opening the text).
 */
export function propertyWords(text: string, names: Readonly<Record<string, string>>): string {
  return text
    .replace(AFTER_NAME, (_, id: string) => ` (${id})`)
    .replace(ALONE, (_, id: string, at: number) => {
      const name = names[id];
      return name ? `${name} (${id})` : `${at === 0 ? "Property" : "property"} ${id}`;
    });
}
