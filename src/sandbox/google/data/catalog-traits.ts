/**
 * Value lists for the dimensions that describe who a session's users are and what they used: cities
 * (each in its country and region, with GA's geo ID), browsers and operating systems per device
 * category, screen sizes, languages, age and gender brackets, and the hour-of-day curve. The values
 * are spelled as GA4 reports them; the geo IDs are Google Ads geotarget criterion IDs, which GA4 uses
 * for cityId (https://developers.google.com/google-ads/api/data/geotargets).
 */

export interface City {
  name: string;
  region: string;
  id: string;
  weight: number;
}

/** Keyed by ISO 3166-1 alpha-2 country code (catalog-values.ts COUNTRIES). */
export const CITIES: Readonly<Record<string, readonly City[]>> = {
  US: [
    { name: "New York", region: "New York", id: "1023191", weight: 9 },
    { name: "Los Angeles", region: "California", id: "1013962", weight: 7 },
    { name: "Chicago", region: "Illinois", id: "1016367", weight: 5 },
    { name: "Austin", region: "Texas", id: "1026201", weight: 3 },
    { name: "Seattle", region: "Washington", id: "1027744", weight: 3 },
  ],
  FR: [
    { name: "Paris", region: "Ile-de-France", id: "1006094", weight: 8 },
    { name: "Lyon", region: "Auvergne-Rhone-Alpes", id: "1006167", weight: 3 },
    { name: "Marseille", region: "Provence-Alpes-Cote d'Azur", id: "1006125", weight: 2 },
  ],
  DE: [
    { name: "Berlin", region: "Berlin", id: "1003854", weight: 6 },
    { name: "Munich", region: "Bavaria", id: "1004234", weight: 4 },
    { name: "Hamburg", region: "Hamburg", id: "1004437", weight: 3 },
  ],
  GB: [
    { name: "London", region: "England", id: "1006886", weight: 10 },
    { name: "Manchester", region: "England", id: "1006912", weight: 3 },
    { name: "Edinburgh", region: "Scotland", id: "1007181", weight: 2 },
  ],
  JP: [
    { name: "Tokyo", region: "Tokyo", id: "1009309", weight: 8 },
    { name: "Osaka", region: "Osaka", id: "1009540", weight: 3 },
  ],
  CA: [
    { name: "Toronto", region: "Ontario", id: "1002451", weight: 5 },
    { name: "Vancouver", region: "British Columbia", id: "1001970", weight: 3 },
    { name: "Montreal", region: "Quebec", id: "1002604", weight: 3 },
  ],
  ES: [
    { name: "Madrid", region: "Community of Madrid", id: "1005493", weight: 5 },
    { name: "Barcelona", region: "Catalonia", id: "1005424", weight: 4 },
  ],
  IN: [
    { name: "Bengaluru", region: "Karnataka", id: "1007768", weight: 5 },
    { name: "Mumbai", region: "Maharashtra", id: "1007785", weight: 5 },
    { name: "New Delhi", region: "Delhi", id: "1007751", weight: 4 },
  ],
  BR: [
    { name: "Sao Paulo", region: "State of Sao Paulo", id: "1001773", weight: 6 },
    { name: "Rio de Janeiro", region: "State of Rio de Janeiro", id: "1001655", weight: 3 },
  ],
  AU: [
    { name: "Sydney", region: "New South Wales", id: "1000286", weight: 5 },
    { name: "Melbourne", region: "Victoria", id: "1000567", weight: 4 },
  ],
  IT: [
    { name: "Milan", region: "Lombardy", id: "1008463", weight: 4 },
    { name: "Rome", region: "Lazio", id: "1008736", weight: 4 },
  ],
  NL: [
    { name: "Amsterdam", region: "North Holland", id: "1010543", weight: 5 },
    { name: "Rotterdam", region: "South Holland", id: "1010591", weight: 2 },
  ],
};

/** UN M49 codes, which GA4 reports as continentId. */
export const CONTINENT_IDS: Readonly<Record<string, string>> = {
  Africa: "002",
  Americas: "019",
  Asia: "142",
  Europe: "150",
  Oceania: "009",
};

export const LANGUAGES: Readonly<Record<string, { name: string; code: string }>> = {
  US: { name: "English", code: "en-us" },
  GB: { name: "English", code: "en-gb" },
  CA: { name: "English", code: "en-ca" },
  AU: { name: "English", code: "en-au" },
  FR: { name: "French", code: "fr-fr" },
  DE: { name: "German", code: "de-de" },
  JP: { name: "Japanese", code: "ja-jp" },
  ES: { name: "Spanish", code: "es-es" },
  IN: { name: "English", code: "en-in" },
  BR: { name: "Portuguese", code: "pt-br" },
  IT: { name: "Italian", code: "it-it" },
  NL: { name: "Dutch", code: "nl-nl" },
};

export interface Tech {
  browser: string;
  os: string;
  osVersion: string;
  brand: string;
  model: string;
  marketingName: string;
  resolution: string;
  weight: number;
}

/** Per device category (catalog-values.ts DEVICES order: desktop, mobile, tablet). */
export const TECH: readonly (readonly Tech[])[] = [
  [
    {
      browser: "Chrome",
      os: "Windows",
      osVersion: "10",
      brand: "Microsoft",
      model: "(not set)",
      marketingName: "(not set)",
      resolution: "1920x1080",
      weight: 40,
    },
    {
      browser: "Chrome",
      os: "Macintosh",
      osVersion: "Intel 10.15",
      brand: "Apple",
      model: "(not set)",
      marketingName: "(not set)",
      resolution: "1440x900",
      weight: 18,
    },
    {
      browser: "Edge",
      os: "Windows",
      osVersion: "10",
      brand: "Microsoft",
      model: "(not set)",
      marketingName: "(not set)",
      resolution: "1536x864",
      weight: 14,
    },
    {
      browser: "Safari",
      os: "Macintosh",
      osVersion: "Intel 10.15",
      brand: "Apple",
      model: "(not set)",
      marketingName: "(not set)",
      resolution: "1680x1050",
      weight: 10,
    },
    {
      browser: "Firefox",
      os: "Windows",
      osVersion: "10",
      brand: "Microsoft",
      model: "(not set)",
      marketingName: "(not set)",
      resolution: "1366x768",
      weight: 8,
    },
    {
      browser: "Chrome",
      os: "Linux",
      osVersion: "(not set)",
      brand: "(not set)",
      model: "(not set)",
      marketingName: "(not set)",
      resolution: "2560x1440",
      weight: 3,
    },
  ],
  [
    {
      browser: "Safari",
      os: "iOS",
      osVersion: "17.5",
      brand: "Apple",
      model: "iPhone",
      marketingName: "iPhone",
      resolution: "390x844",
      weight: 38,
    },
    {
      browser: "Chrome",
      os: "Android",
      osVersion: "14",
      brand: "Samsung",
      model: "SM-S918B",
      marketingName: "Galaxy S23 Ultra",
      resolution: "384x854",
      weight: 24,
    },
    {
      browser: "Chrome",
      os: "Android",
      osVersion: "14",
      brand: "Google",
      model: "Pixel 8",
      marketingName: "Pixel 8",
      resolution: "412x915",
      weight: 10,
    },
    {
      browser: "Samsung Internet",
      os: "Android",
      osVersion: "13",
      brand: "Samsung",
      model: "SM-A546B",
      marketingName: "Galaxy A54 5G",
      resolution: "384x832",
      weight: 8,
    },
    {
      browser: "Safari (in-app)",
      os: "iOS",
      osVersion: "17.4",
      brand: "Apple",
      model: "iPhone",
      marketingName: "iPhone",
      resolution: "430x932",
      weight: 6,
    },
  ],
  [
    {
      browser: "Safari",
      os: "iOS",
      osVersion: "17.5",
      brand: "Apple",
      model: "iPad",
      marketingName: "iPad",
      resolution: "820x1180",
      weight: 60,
    },
    {
      browser: "Chrome",
      os: "Android",
      osVersion: "13",
      brand: "Samsung",
      model: "SM-X710",
      marketingName: "Galaxy Tab S9",
      resolution: "800x1280",
      weight: 25,
    },
  ],
];

export const AGE_BRACKETS: readonly [string, number][] = [
  ["18-24", 14],
  ["25-34", 28],
  ["35-44", 20],
  ["45-54", 12],
  ["55-64", 7],
  ["65+", 4],
  ["unknown", 15],
];

export const GENDERS: readonly [string, number][] = [
  ["male", 44],
  ["female", 40],
  ["unknown", 16],
];

/** Share of a day's sessions starting in each local hour 00..23: low at night, peaks mid-morning and evening. */
export const HOUR_WEIGHTS: readonly number[] = [
  2, 1.4, 1, 0.8, 0.8, 1.1, 2, 3.2, 4.6, 5.6, 6, 6, 5.8, 5.7, 5.6, 5.4, 5.2, 5, 5.1, 5.6, 5.9, 5.2, 4, 2.8,
];
