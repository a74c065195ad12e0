/** Voter groups' shared rules (convex/groups.ts, and districts' "make a group"): a group's name, adding members. */
import type { GenericDatabaseReader } from "convex/server";
import type { DataModel, Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { appError } from "../lib/errors";
import { TEXTS } from "../lib/texts";
import { onVoterEvent } from "./emailAutomation";

export function cleanGroupInput(name: string, description: string | undefined | null) {
  const n = name.trim();
  if (!n) throw appError("VALIDATION_ERROR", TEXTS.required.groupName, "Name Required");
  if (n.length > 200) throw appError("VALIDATION_ERROR");
  const d = description?.trim() ?? "";
  return { name: n, description: d === "" ? null : d };
}

async function isMember(db: GenericDatabaseReader<DataModel>, groupId: Id<"voterGroups">, voterId: Id<"voters">) {
  return (
    (await db
      .query("voterGroupMembers")
      .withIndex("by_group_voter", (q) => q.eq("groupId", groupId).eq("voterId", voterId))
      .first()) !== null
  );
}

/** Adds voters (already loaded, same org) to a group, skipping members; keeps memberCount right. */
export async function addVoters(ctx: MutationCtx, group: Doc<"voterGroups">, voters: Doc<"voters">[]) {
  let added = 0;
  let duplicates = 0;
  const seen = new Set<string>();
  for (const voter of voters) {
    if (seen.has(voter._id) || (await isMember(ctx.db, group._id, voter._id))) {
      duplicates += 1;
      continue;
    }
    seen.add(voter._id);
    await ctx.db.insert("voterGroupMembers", { orgId: group.orgId, groupId: group._id, voterId: voter._id });
    added += 1;
    await onVoterEvent(ctx, voter, { type: "group_joined", targetId: group._id });
  }
  if (added > 0)
    await ctx.db.patch("voterGroups", group._id, { memberCount: group.memberCount + added, updatedAt: Date.now() });
  return { added, duplicates };
}
