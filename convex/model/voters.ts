/** Building and writing voter documents: derived search/dedupe fields and counters stay in step. */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import type { VoterFields } from "../tables/voters";
import { adjustCounter } from "./counters";

/** Lowercased text the search index matches: names, email and phone. */
export function voterSearchText(f: Pick<VoterFields, "first_name" | "last_name" | "email" | "phone">): string {
  return [f.first_name, f.last_name, f.email, f.email?.split("@")[0], f.phone?.replace(/\D/g, "")]
    .filter((x): x is string => !!x && x.length > 0)
    .join(" ")
    .toLowerCase();
}

/** Derived fields stored beside the editable ones. */
export function derivedVoterFields(f: VoterFields) {
  const email = f.email?.trim();
  return {
    searchText: voterSearchText(f),
    emailLower: email ? email.toLowerCase() : undefined,
    firstNameLower: f.first_name.trim().toLowerCase(),
    lastNameLower: f.last_name.trim().toLowerCase(),
  };
}

export async function insertVoter(
  ctx: MutationCtx,
  orgId: Id<"organizations">,
  fields: VoterFields,
  opts: { importId?: Id<"importHistory">; countLater?: boolean } = {},
): Promise<Id<"voters">> {
  const id = await ctx.db.insert("voters", {
    ...fields,
    ...derivedVoterFields(fields),
    orgId,
    importId: opts.importId,
    updatedAt: Date.now(),
  });
  if (!opts.countLater) await adjustCounter(ctx, orgId, "voters", 1);
  return id;
}

export async function updateVoter(ctx: MutationCtx, voter: Doc<"voters">, fields: VoterFields) {
  await ctx.db.replace(voter._id, {
    ...fields,
    ...derivedVoterFields(fields),
    orgId: voter.orgId,
    importId: voter.importId,
    updatedAt: Date.now(),
  });
}

/** Deletes a voter with its group memberships (keeping group member counts right). */
export async function deleteVoter(ctx: MutationCtx, voter: Doc<"voters">, opts: { countLater?: boolean } = {}) {
  const memberships = await ctx.db
    .query("voterGroupMembers")
    .withIndex("by_voter", (q) => q.eq("voterId", voter._id))
    .collect();
  for (const m of memberships) {
    await ctx.db.delete(m._id);
    const group = await ctx.db.get(m.groupId);
    if (group) await ctx.db.patch(group._id, { memberCount: Math.max(0, group.memberCount - 1) });
  }
  await ctx.db.delete(voter._id);
  if (!opts.countLater) await adjustCounter(ctx, voter.orgId, "voters", -1);
}
