/**
 * The Asset API objects beyond programs, emails, folders and lists: My Tokens of folders and programs,
 * snippets, segmentations, and the sample emails sent. Kept in one store on the World so the shared
 * model (types.ts) grows by one field.
 */
/**
 * A folder or program as a parent, the same shape as types.ts FolderRef; spelt out here because types.ts
 * imports this file (the World holds the store), and the sandbox keeps its imports free of cycles.
 */
interface FolderRef {
  id: number;
  type: "Folder" | "Program";
}

/**
 * The token types the API can create (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/tokens
 * "Data Type"; Swagger CreateTokenRequest.type).
 */
export const TOKEN_TYPES = ["date", "number", "rich text", "score", "sfdc campaign", "text"] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

export interface MyToken {
  name: string;
  type: TokenType;
  value: string;
}

/** A snippet's version (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/snippets). */
export interface SnippetVersion {
  description: string;
  /** "HTML" or "Text" (Swagger SnippetContentResponse.type, ADE snippets.md content example). */
  type: string;
  content: string;
  updatedAt: number;
}

export interface Snippet {
  id: number;
  name: string;
  folder: FolderRef;
  createdAt: number;
  approved?: SnippetVersion;
  draft?: SnippetVersion;
}

/** An email template's HTML (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/email-templates). */
export interface TemplateVersion {
  description: string;
  content: string;
  updatedAt: number;
}

export interface EmailTemplate {
  id: number;
  name: string;
  folder: FolderRef;
  createdAt: number;
  approved?: TemplateVersion;
  draft?: TemplateVersion;
}

/** One editable section of a landing page (ADE landing-pages.md "Query": the content list). */
export interface LandingPageSection {
  id: string;
  type: "RichText" | "HTML";
  content: string;
}

/** A landing page's version: its metadata (Swagger UpdateLandingPageRequest, name aside), title and sections. */
export interface LandingPageVersion {
  description: string;
  title: string;
  keywords: string;
  robots: string;
  customHeadHTML: string;
  facebookOgTags: string;
  mobileEnabled: boolean;
  urlPageName: string;
  sections: LandingPageSection[];
  updatedAt: number;
}

/** Landing pages (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/landing-pages). */
export interface LandingPage {
  id: number;
  name: string;
  folder: FolderRef;
  /** A landing page template id: 1 (guided) or 2 (free-form), the sandbox's two. */
  template: number;
  formPrefill: boolean;
  createdAt: number;
  approved?: LandingPageVersion;
  draft?: LandingPageVersion;
}

/**
 * A form's version: its metadata (Swagger UpdateFormMetaDataRequest, name aside), its fields (lead field
 * REST names, in order) and button.
 */
export interface FormVersion {
  description: string;
  fontFamily: string;
  fontSize: string;
  labelPosition: string;
  language: string;
  locale: string;
  theme: string;
  progressiveProfiling: boolean;
  fields: string[];
  buttonLabel: string;
  /** Update Submit Button's waitingLabel, buttonPosition (answered as buttonLocation) and buttonStyle. */
  waitingLabel?: string;
  buttonLocation?: number;
  buttonStyle?: string;
  updatedAt: number;
}

/** Forms (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/forms). */
export interface MarketoForm {
  id: number;
  name: string;
  folder: FolderRef;
  createdAt: number;
  approved?: FormVersion;
  draft?: FormVersion;
}

export interface Segmentation {
  id: number;
  name: string;
  description: string;
  status: "approved" | "draft";
  createdAt: number;
  updatedAt: number;
  segments: { id: number; name: string }[];
}

export interface SampleSend {
  emailId: number;
  emailAddress: string;
  leadId?: number;
  textOnly: boolean;
  at: number;
}

export interface AssetStore {
  /** "Program:1001" or "Folder:40" → the My Tokens set on that folder or program. */
  tokens: Map<string, MyToken[]>;
  snippets: Snippet[];
  /** Email templates 1001–1003 are the `template` of the seeded emails. */
  emailTemplates: EmailTemplate[];
  landingPages: LandingPage[];
  forms: MarketoForm[];
  segmentations: Segmentation[];
  sampleSends: SampleSend[];
  /** The next id of a created asset (emails, programs, folders, snippets share the counter). */
  nextId: number;
}

export const tokenKey = (ref: FolderRef): string => `${ref.type}:${ref.id}`;
