import { ValidationError } from "../../errors.js";

const WHERE =
  "Use the numeric GA4 property ID: in Google Analytics open Admin > Property settings > Property details " +
  "(top right), or list your properties with google_analytics_api_call (GET v1beta/accountSummaries).";

// GA4 web UI addresses carry the property as "p<id>" after the hash, alone ("#/p123/reports/...") or after
// the account ("#/a456p123/admin/..."). Universal Analytics used "a<id>w<id>p<view>", a view, not a property.
const UI_PROPERTY = /#\/(?:a\d+)?p(\d{1,20})(?=[/?&]|$)/;
const UI_UNIVERSAL = /#\/(?:[^/]*\/)?a\d+w\d+p\d+/;

/**
 * The numeric property ID from what people paste: "123", "properties/123" or a GA4 page URL.
 * Measurement IDs (G-…) and Universal Analytics IDs (UA-…) are refused with where to find the real one.
 */
export function parsePropertyId(raw: string, field = "property"): string {
  const value = raw.trim();
  const plain = /^(?:properties\/)?(\d{1,20})$/.exec(value);
  if (plain?.[1]) return checkNonZero(plain[1], field);
  if (/^G-[A-Z0-9]+$/i.test(value)) {
    throw new ValidationError(
      field,
      `"${value.slice(0, 20)}" is a measurement ID of a web data stream, not a property ID.`,
      {
        hint: WHERE,
      },
    );
  }
  if (/^UA-\d+(-\d+)?$/i.test(value) || UI_UNIVERSAL.test(value)) {
    throw new ValidationError(
      field,
      "this is a Universal Analytics property, which stopped processing data in July 2023 and cannot be read " +
        "through the GA4 APIs.",
      { hint: WHERE },
    );
  }
  if (/^https:\/\/analytics\.google\.com\//i.test(value)) {
    const fromUrl = UI_PROPERTY.exec(value)?.[1];
    if (fromUrl) return checkNonZero(fromUrl, field);
  }
  throw new ValidationError(
    field,
    'accepted forms are "123456789", "properties/123456789" or a Google Analytics page URL containing #/p123456789/.',
    { hint: WHERE },
  );
}

function checkNonZero(id: string, field: string): string {
  // Property 0 only exists for the universal metadata request (REAL-API B1); reports on it fail.
  if (/^0+$/.test(id))
    throw new ValidationError(field, "property 0 is not a real property.", { hint: WHERE });
  return id.replace(/^0+/, "");
}
