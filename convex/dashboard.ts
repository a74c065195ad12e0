/** Dashboard figures: live counts of the caller's organisation and short recent lists. Any member. */
import { v } from "convex/values";
import { orgQuery } from "./functions";
import { readCounters } from "./model/counters";
import { isStale } from "./model/imports";
import { canSeeVoters } from "./model/personalData";
import { vImportStatus } from "./tables/imports";

export const RECENT_LIMIT = 5;

const nullableText = v.union(v.string(), v.null());

export const stats = orgQuery(null)({
  args: {},
  returns: v.object({
    counts: v.object({
      voters: v.number(),
      groups: v.number(),
      campaigns: v.number(),
      messagesSent: v.number(),
      emailsSent: v.number(),
      forms: v.number(),
      submissions: v.number(),
      surveys: v.number(),
      imports: v.number(),
      members: v.number(),
      pendingMembers: v.number(),
    }),
    /** null: the caller may not read voters */
    recentVoters: v.union(
      v.array(
        v.object({
          id: v.id("voters"),
          firstName: v.string(),
          lastName: v.string(),
          email: nullableText,
          status: nullableText,
          party: nullableText,
          createdAt: v.number(),
        }),
      ),
      v.null(),
    ),
    /** null: the caller may not manage imports */
    recentImports: v.union(
      v.array(
        v.object({
          id: v.id("importHistory"),
          filename: v.string(),
          /** "interrupted": the browser stopped sending batches (Import History says so too) */
          status: v.union(...vImportStatus.members, v.literal("interrupted")),
          updatedAt: v.number(),
          importedRecords: v.number(),
          totalRecords: v.number(),
          importDate: v.number(),
        }),
      ),
      v.null(),
    ),
  }),
  handler: async (ctx) => {
    const orgId = ctx.viewer.orgId;
    const counters = await readCounters(ctx, orgId);
    const memberships = await ctx.db
      .query("memberships")
      .withIndex("by_org_user", (q) => q.eq("orgId", orgId))
      .collect();
    const members = memberships.filter((m) => m.status === "active").length;
    const pendingMembers = memberships.length - members;

    // Lists only for those allowed to read the rows behind them; counts are for every member.
    const recentVoters = canSeeVoters(ctx.viewer)
      ? (
          await ctx.db
            .query("voters")
            .withIndex("by_org", (q) => q.eq("orgId", orgId))
            .order("desc")
            .take(RECENT_LIMIT)
        ).map((v) => ({
          id: v._id,
          firstName: v.first_name,
          lastName: v.last_name,
          email: v.email ?? null,
          status: v.status ?? null,
          party: v.party_affiliation ?? null,
          createdAt: v._creationTime,
        }))
      : null;
    // An import whose browser stopped sending batches is "interrupted", as Import History says.
    const now = Date.now();
    const recentImports = ctx.viewer.can("voters.manage")
      ? (
          await ctx.db
            .query("importHistory")
            .withIndex("by_org_date", (q) => q.eq("orgId", orgId))
            .order("desc")
            .take(RECENT_LIMIT)
        ).map((i) => ({
          id: i._id,
          filename: i.filename,
          status: isStale(i, now) ? ("interrupted" as const) : i.status,
          updatedAt: i.updatedAt,
          importedRecords: i.imported_records,
          totalRecords: i.total_records,
          importDate: i.import_date,
        }))
      : null;

    return {
      counts: {
        voters: counters.voters,
        groups: counters.voterGroups,
        campaigns: counters.campaigns,
        messagesSent: counters.messagesSent,
        emailsSent: counters.emailsSent,
        forms: counters.forms,
        submissions: counters.formSubmissions,
        surveys: counters.surveys,
        imports: counters.imports,
        members,
        pendingMembers,
      },
      recentVoters,
      recentImports,
    };
  },
});
