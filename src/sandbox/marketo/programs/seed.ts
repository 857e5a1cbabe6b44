/**
 * Program progression statuses by program type (the channel defaults of a new instance) and the seeded
 * program membership, drawn from their own PRNG stream, so adding them left the leads, lists and
 * activities of a seed as they were.
 */
import type { Prng } from "../../prng.js";
import { MarketoApiError, type Program, type ProgramMembership } from "../types.js";

const DAY_MS = 86_400_000;

/** Progression statuses by program type, the success status first (channel defaults of a new instance). */
const STATUSES: Record<Program["type"], readonly string[]> = {
  Email: ["Clicked", "Member", "Sent", "Delivered", "Opened", "Bounced", "Unsubscribed"],
  Default: ["Engaged", "Member"],
  Event: ["Attended", "Invited", "Registered", "No Show"],
  Engagement: ["Engaged", "Member"],
  Webinar: ["Attended", "Invited", "Registered", "No Show", "Attended On-demand"],
};

export function successStatuses(type: Program["type"]): readonly string[] {
  return type === "Webinar" ? ["Attended", "Attended On-demand"] : [STATUSES[type][0] as string];
}

export function programStatuses(type: Program["type"]): readonly string[] {
  return STATUSES[type];
}

/** The program's status of that name (any case); 1003 when its channel's progression has none. */
export function statusNamed(program: Program, asked: string): string {
  const status = STATUSES[program.type].find((s) => s.toLowerCase() === asked.toLowerCase());
  if (!status) throw new MarketoApiError("1003", `Invalid status '${asked}' for program ${program.id}`);
  return status;
}

/** 40–200 members per program, joined after the program was created. */
export function seedProgramMembers(
  prng: Prng,
  programs: readonly Program[],
  leadIds: readonly number[],
  now: number,
): Map<number, Map<number, ProgramMembership>> {
  const all = new Map<number, Map<number, ProgramMembership>>();
  for (const program of programs) {
    const members = new Map<number, ProgramMembership>();
    const count = Math.min(leadIds.length, prng.int(40, 200));
    const chosen = prng.shuffle(leadIds).slice(0, count);
    const success = successStatuses(program.type);
    for (const leadId of chosen.sort((a, b) => a - b)) {
      const statusName = prng.pick(STATUSES[program.type]);
      const membershipDate = Math.min(now - DAY_MS, program.createdAt + prng.int(0, 60) * DAY_MS);
      const membership: ProgramMembership = {
        leadId,
        programId: program.id,
        statusName,
        reachedSuccess: success.includes(statusName),
        acquiredBy: prng.chance(0.3),
        membershipDate,
        updatedAt: Math.min(now - 60_000, membershipDate + prng.int(0, 30) * DAY_MS),
      };
      if (program.type === "Engagement") {
        membership.stream = prng.pick(["Stream 1", "Stream 2"]);
        membership.nurtureCadence = prng.chance(0.8) ? "norm" : "paus";
        membership.isExhausted = prng.chance(0.1);
      }
      members.set(leadId, membership);
    }
    all.set(program.id, members);
  }
  return all;
}
