/**
 * Read-only reference objects of the Asset API: channels (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/channels),
 * tag types (…/rest/assets/tags) and segmentations (…/rest/assets/segmentations).
 */

import { programStatuses, successStatuses } from "../programs/seed.js";
import {
  type ApiRequest,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
  type Program,
} from "../types.js";
import { assetDate } from "../wire/codec.js";
import { required, toInt } from "../wire/params.js";
import { NO_ASSETS, offsetPage } from "./paging.js";

/**
 * The channels the seeded programs use, with the program type each applies to (ChannelResponse
 * `applicableProgramType`: program, event, email, nurture) and the progression statuses of that type.
 */
const CHANNELS: readonly (readonly [id: number, name: string, applies: string, type: Program["type"]])[] = [
  [1, "Email Blast", "email", "Email"],
  [2, "Content", "program", "Default"],
  [3, "Webinar", "event", "Webinar"],
  [4, "Nurture", "nurture", "Engagement"],
];
const APPLIES: Record<Program["type"], string> = {
  Email: "email",
  Default: "program",
  Event: "event",
  Webinar: "event",
  Engagement: "nurture",
};
const CHANNELS_CREATED = Date.parse("2019-01-15T10:00:00Z");

/** Whether a program of `type` may use the channel `name` (program create checks it). */
export function channelAllowed(type: Program["type"], name: string): boolean {
  return CHANNELS.some(([, n, applies]) => n === name && applies === APPLIES[type]);
}
export const channelNames = (type: Program["type"]): string[] =>
  CHANNELS.filter(([, , applies]) => applies === APPLIES[type]).map(([, n]) => n);

function channelJson([id, name, applies, type]: (typeof CHANNELS)[number]) {
  const success = successStatuses(type);
  return {
    id,
    name,
    applicableProgramType: applies,
    progressionStatuses: programStatuses(type).map((status, i) => ({
      name: status,
      step: (i + 1) * 10,
      success: success.includes(status),
      hidden: false,
      description: "",
      type: success.includes(status) ? "Success" : "Member",
    })),
    createdAt: assetDate(CHANNELS_CREATED),
    updatedAt: assetDate(CHANNELS_CREATED),
  };
}

export function getChannels(req: ApiRequest): HandlerResult {
  return offsetPage(req, CHANNELS, channelJson);
}

export function getChannelByName(req: ApiRequest): HandlerResult {
  const name = required(req.params, "name");
  const channel = CHANNELS.find(([, n]) => n === name);
  return channel ? { result: [channelJson(channel)] } : { warnings: [NO_ASSETS] };
}

/** The one tag type of the seeded programs; its allowed values are those in use. */
const TAG_TYPE = "Program Owner";
const TAG_APPLIES = "Program,Event,Email,Engagement";

export function getTagTypes(req: ApiRequest): HandlerResult {
  return offsetPage(req, [TAG_TYPE], (tagType) => ({
    tagType,
    applicableProgramTypes: TAG_APPLIES,
    required: false,
  }));
}

export function getTagTypeByName(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const name = required(req.params, "name");
  if (name !== TAG_TYPE) return { warnings: [NO_ASSETS] };
  const values = new Set(
    ctx.world.programs
      .flatMap((p) => p.tags)
      .filter((t) => t.tagType === name)
      .map((t) => t.tagValue),
  );
  return {
    result: [
      {
        tagType: name,
        applicableProgramTypes: TAG_APPLIES,
        required: false,
        allowableValues: [...values].sort().join(","),
      },
    ],
  };
}

function statusFilter(req: ApiRequest): (status: string) => boolean {
  const status = req.params.get("status");
  if (status === null || status === "") return () => true;
  if (status !== "approved" && status !== "draft")
    throw new MarketoApiError("1003", `Invalid value '${status}' for status, must be approved or draft`);
  return (s) => s === status;
}

/** Segmentations live in the Lead Database's workspace zone (folder 5). */
export function getSegmentations(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const keep = statusFilter(req);
  return offsetPage(
    req,
    ctx.world.assets.segmentations.filter((s) => keep(s.status)),
    (s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      createdAt: assetDate(s.createdAt),
      updatedAt: assetDate(s.updatedAt),
      url: `${ctx.origin}/#SEG${s.id}A1`,
      folder: { id: 5, type: "Folder" },
      status: s.status,
      workspace: "Default",
    }),
  );
}

export function getSegments(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const segmentationId = toInt(id ?? "", "id");
  const keep = statusFilter(req);
  const segmentation = ctx.world.assets.segmentations.find((s) => s.id === segmentationId && keep(s.status));
  if (!segmentation) return { warnings: [NO_ASSETS] };
  return offsetPage(req, segmentation.segments, (segment) => ({
    id: segment.id,
    name: segment.name,
    description: "",
    createdAt: assetDate(segmentation.createdAt),
    updatedAt: assetDate(segmentation.updatedAt),
    url: `${ctx.origin}/#SEG${segmentation.id}A1`,
    segmentationId: segmentation.id,
  }));
}
