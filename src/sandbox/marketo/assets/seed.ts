/**
 * The seeded Asset store: My Tokens on every program and on one marketing folder, four snippets in
 * Design Studio, two segmentations. Deterministic from the programs and the clock (no PRNG draw), so
 * adding it left every other seeded object of a seed as it was.
 */
import type { Program } from "../types.js";
import type {
  AssetStore,
  EmailTemplate,
  LandingPage,
  LandingPageVersion,
  MarketoForm,
  MyToken,
  Segmentation,
  Snippet,
} from "./model.js";

const DAY_MS = 86_400_000;
/** The Design Studio workspace folder (folder-tree.ts FOLDER_SPECS) where the seeded snippets live. */
export const SNIPPET_FOLDER_ID = 17;

function programTokens(program: Program, now: number): MyToken[] {
  const tokens: MyToken[] = [
    { name: "Headline", type: "text", value: `${program.name} headline` },
    { name: "Body", type: "rich text", value: `<p>About ${program.name}</p>` },
  ];
  if (program.type === "Event" || program.type === "Webinar") {
    const date = new Date(now + (program.id % 30) * DAY_MS).toISOString().slice(0, 10);
    tokens.push({ name: "Event Date", type: "date", value: date });
  }
  if (program.type === "Engagement") tokens.push({ name: "Score Bump", type: "score", value: "+10" });
  return tokens;
}

function seedSnippets(now: number): Snippet[] {
  const specs: readonly (readonly [string, "HTML" | "Text", boolean, boolean])[] = [
    ["Footer - Legal", "HTML", true, false],
    ["Signature - Sales", "HTML", true, true],
    ["Disclaimer - Text", "Text", true, false],
    ["Promo Banner (new)", "HTML", false, true],
  ];
  return specs.map(([name, type, approved, draft], i) => {
    const createdAt = now - (300 - i * 40) * DAY_MS;
    const content = type === "HTML" ? `<div class="snippet">${name}</div>` : name;
    const description = i % 2 === 0 ? "" : `${name} (seeded)`;
    return {
      id: 3001 + i,
      name,
      folder: { id: SNIPPET_FOLDER_ID, type: "Folder" },
      createdAt,
      ...(approved ? { approved: { description, type, content, updatedAt: createdAt + DAY_MS } } : {}),
      ...(draft
        ? { draft: { description, type, content: `${content} v2`, updatedAt: now - (i + 1) * DAY_MS } }
        : {}),
    };
  });
}

/** The Design Studio "Emails" folder (folder-tree.ts FOLDER_SPECS) where the seeded templates live. */
export const TEMPLATE_FOLDER_ID = 18;

/** Templates 1001–1003, approved; 1003 also has a pending draft. One editable section each. */
function seedEmailTemplates(now: number): EmailTemplate[] {
  return ["Basic One Column", "Newsletter Two Column", "Event Invitation"].map((name, i) => {
    const createdAt = now - (800 - i * 50) * DAY_MS;
    const content = `<!DOCTYPE html><html><head><title>${name}</title></head><body><div class="mktoText" id="edit_text_1" mktoName="Body">${name}</div></body></html>`;
    return {
      id: 1001 + i,
      name,
      folder: { id: TEMPLATE_FOLDER_ID, type: "Folder" },
      createdAt,
      approved: { description: "", content, updatedAt: createdAt + DAY_MS },
      ...(i === 2
        ? {
            draft: {
              description: "",
              content: content.replace("</body>", "<p>v2</p></body>"),
              updatedAt: now - DAY_MS,
            },
          }
        : {}),
    };
  });
}

/** Landing pages 1001–1003 in event program 1003: approved, approved with a draft, draft only. */
function seedLandingPages(now: number): LandingPage[] {
  const specs: readonly (readonly [string, boolean, boolean])[] = [
    ["Event Registration", true, false],
    ["Event Thank You", true, true],
    ["Event Agenda", false, true],
  ];
  return specs.map(([name, approved, draft], i) => {
    const createdAt = now - (120 - i * 10) * DAY_MS;
    const version = (suffix: string, updatedAt: number): LandingPageVersion => ({
      description: "",
      title: `${name}${suffix}`,
      keywords: "",
      robots: "index, nofollow",
      customHeadHTML: "",
      facebookOgTags: "",
      mobileEnabled: true,
      urlPageName: name.toLowerCase().replaceAll(" ", "-"),
      sections: [{ id: "body", type: "RichText" as const, content: `<p>${name}${suffix}</p>` }],
      updatedAt,
    });
    return {
      id: 1001 + i,
      name,
      folder: { id: 1003, type: "Program" },
      template: 1,
      formPrefill: false,
      createdAt,
      ...(approved ? { approved: version("", createdAt + DAY_MS) } : {}),
      ...(draft ? { draft: version(" (draft)", now - DAY_MS) } : {}),
    };
  });
}

/** Forms 1001 (approved) and 1002 (approved with a draft adding a field) in event program 1003. */
function seedForms(now: number): MarketoForm[] {
  const base = ["email", "firstName", "lastName"];
  const style = {
    description: "",
    fontFamily: "Helvetica",
    fontSize: "13px",
    labelPosition: "left",
    language: "English",
    locale: "en_US",
    theme: "simple",
    progressiveProfiling: false,
  };
  return ["Event Registration Form", "Contact Us"].map((name, i) => {
    const createdAt = now - (150 - i * 10) * DAY_MS;
    return {
      id: 1001 + i,
      name,
      folder: { id: 1003, type: "Program" },
      createdAt,
      approved: { ...style, fields: base, buttonLabel: "Submit", updatedAt: createdAt + DAY_MS },
      ...(i === 1
        ? {
            draft: { ...style, fields: [...base, "company"], buttonLabel: "Send", updatedAt: now - DAY_MS },
          }
        : {}),
    };
  });
}

function seedSegmentations(now: number): Segmentation[] {
  const createdAt = now - 500 * DAY_MS;
  return [
    {
      id: 1001,
      name: "Region",
      description: "Segments leads by region",
      status: "approved",
      createdAt,
      updatedAt: createdAt + 5 * DAY_MS,
      segments: [
        { id: 1001, name: "North America" },
        { id: 1002, name: "EMEA" },
        { id: 1003, name: "Default" },
      ],
    },
    {
      id: 1002,
      name: "Industry",
      description: "",
      status: "draft",
      createdAt: createdAt + 30 * DAY_MS,
      updatedAt: createdAt + 31 * DAY_MS,
      segments: [
        { id: 1004, name: "Software" },
        { id: 1005, name: "Default" },
      ],
    },
  ];
}

export function seedAssetStore(programs: readonly Program[], now: number): AssetStore {
  const tokens = new Map<string, MyToken[]>();
  for (const program of programs) tokens.set(`Program:${program.id}`, programTokens(program, now));
  tokens.set("Folder:40", [{ name: "Company Name", type: "text", value: "Sandbox Inc." }]);
  return {
    tokens,
    snippets: seedSnippets(now),
    emailTemplates: seedEmailTemplates(now),
    landingPages: seedLandingPages(now),
    forms: seedForms(now),
    segmentations: seedSegmentations(now),
    sampleSends: [],
    nextId: 9001,
  };
}
