/**
 * Email lists (spec/2 §3 email_lists, list_contacts): the organisation's mailing lists, the three
 * defaults, and the voters on the manual ones. campaigns.view reads; campaigns.manage changes.
 * Who is on a list (names, emails) is the voter file: it also needs voters.view
 * (model/personalData.ts); the lists' counts do not.
 */
import { paginationOptsValidator, paginationResultValidator } from "convex/server";
import { v } from "convex/values";
import type { Doc } from "./_generated/dataModel";
import { appError, internalMutation, orgMutation, orgQuery } from "./functions";
import {
  activeListContacts,
  addGroupToListStep,
  addVotersToList,
  checkAudienceName,
  cleanAudienceDescription,
  cleanAudienceName,
  DEFAULT_LISTS,
  listSourceCount,
  loadManualList,
  MAX_ADD_VOTERS,
  MAX_LISTS,
  purgeListContacts,
  votersWithEmail,
} from "./model/emailAudience";
import { requireVoterAccess } from "./model/personalData";
import { vListSubscriptionType } from "./tables/emailAudience";

const vList = v.object({
  id: v.id("emailLists"),
  name: v.string(),
  description: v.union(v.string(), v.null()),
  subscriptionType: vListSubscriptionType,
  isActive: v.boolean(),
  /** a manual list's contacts; All Contacts: the organisation's voters (those with an email are counted at send) */
  contactCount: v.number(),
});

/** The organisation's active lists, by name. */
export const list = orgQuery("campaigns.view")({
  args: {},
  returns: v.array(vList),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("emailLists")
      .withIndex("by_org_name", (q) => q.eq("orgId", ctx.viewer.orgId))
      .take(MAX_LISTS + 10);
    const out = [];
    for (const l of rows) {
      if (!l.isActive) continue;
      out.push({
        id: l._id,
        name: l.name,
        description: l.description,
        subscriptionType: l.subscriptionType,
        isActive: l.isActive,
        contactCount: await listSourceCount(ctx.db, l),
      });
    }
    return out;
  },
});

/** Inserts All Contacts, Newsletter Subscribers and Event Attendees when the organisation has no list. */
export const ensureDefaults = orgMutation("campaigns.manage")({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    const orgId = ctx.viewer.orgId;
    const any = await ctx.db
      .query("emailLists")
      .withIndex("by_org_name", (q) => q.eq("orgId", orgId))
      .first();
    if (any) return null;
    const now = Date.now();
    for (const d of DEFAULT_LISTS) {
      await ctx.db.insert("emailLists", {
        orgId,
        ...d,
        isActive: true,
        contactCount: 0,
        createdBy: ctx.viewer.userId,
        createdAt: now,
        updatedAt: now,
      });
    }
    return null;
  },
});

export const create = orgMutation("campaigns.manage")({
  args: { name: v.string(), description: v.union(v.string(), v.null()) },
  returns: v.id("emailLists"),
  handler: async (ctx, args) => {
    const name = cleanAudienceName(args.name, "emailLists");
    const description = cleanAudienceDescription(args.description);
    await checkAudienceName(ctx.db, "emailLists", ctx.viewer.orgId, name);
    const now = Date.now();
    return await ctx.db.insert("emailLists", {
      orgId: ctx.viewer.orgId,
      name,
      description,
      subscriptionType: "manual",
      isActive: true,
      contactCount: 0,
      createdBy: ctx.viewer.userId,
      createdAt: now,
      updatedAt: now,
    });
  },
});

/** Deletes a manual list; its contacts go in batches. All Contacts stays. */
export const remove = orgMutation("campaigns.manage")({
  args: { id: v.id("emailLists") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const list = await ctx.db.get("emailLists", id);
    if (!list) throw appError("NOT_FOUND");
    if (list.subscriptionType === "all_voters")
      throw appError("VALIDATION_ERROR", "The All Contacts list cannot be deleted.", "List cannot be deleted");
    await ctx.db.delete("emailLists", id);
    await purgeListContacts(ctx, id);
    return null;
  },
});

export const purgeContacts = internalMutation({
  args: { listId: v.id("emailLists") },
  returns: v.null(),
  handler: async (ctx, { listId }) => {
    await purgeListContacts(ctx, listId);
    return null;
  },
});

const vContact = v.object({ voterId: v.id("voters"), name: v.string(), email: v.string() });

/**
 * One page of a list's contacts (All Contacts: the voters with an email, by address). A missing
 * list has none. Their names and emails need voters.view as well (the count is in `list`).
 */
export const contacts = orgQuery("campaigns.view")({
  args: { listId: v.id("emailLists"), paginationOpts: paginationOptsValidator },
  returns: paginationResultValidator(vContact),
  handler: async (ctx, { listId, paginationOpts }) => {
    requireVoterAccess(ctx.viewer, "Seeing who is on a list");
    const opts = { ...paginationOpts, numItems: Math.max(1, Math.min(200, paginationOpts.numItems)) };
    const list = await ctx.db.get("emailLists", listId);
    if (!list) return { page: [], isDone: true, continueCursor: "" };
    const nameOf = (voter: Doc<"voters">) => `${voter.first_name} ${voter.last_name}`.trim();
    if (list.subscriptionType === "all_voters") {
      const page = await votersWithEmail(ctx.db, list.orgId).paginate(opts);
      return {
        ...page,
        page: page.page.map((voter) => ({
          voterId: voter._id,
          name: nameOf(voter),
          email: voter.email ?? voter.emailLower ?? "",
        })),
      };
    }
    const page = await activeListContacts(ctx.db, listId).paginate(opts);
    const voters = await Promise.all(page.page.map((c) => ctx.db.get("voters", c.voterId)));
    return {
      ...page,
      page: page.page.flatMap((c, i) => {
        const voter = voters[i];
        return voter ? [{ voterId: voter._id, name: nameOf(voter), email: voter.email ?? c.email }] : [];
      }),
    };
  },
});

/** Adds voters to a manual list (at most 500 a call): voters without an email and those already on it are skipped. */
export const addVoters = orgMutation("campaigns.manage")({
  args: { listId: v.id("emailLists"), voterIds: v.array(v.id("voters")) },
  returns: v.object({ added: v.number(), duplicates: v.number(), noEmail: v.number() }),
  handler: async (ctx, { listId, voterIds }) => {
    if (voterIds.length > MAX_ADD_VOTERS)
      throw appError("VALIDATION_ERROR", `At most ${MAX_ADD_VOTERS} voters can be added at once.`);
    const list = await loadManualList(ctx.db, listId, "add");
    const voters = await Promise.all(voterIds.map((id) => ctx.db.get("voters", id)));
    return await addVotersToList(
      ctx,
      list,
      voters.filter((x): x is Doc<"voters"> => x !== null),
    );
  },
});

/** Adds every member of a group that has an email to a manual list (large groups finish in the background). */
export const addGroup = orgMutation("campaigns.manage")({
  args: { listId: v.id("emailLists"), groupId: v.id("voterGroups") },
  returns: v.null(),
  handler: async (ctx, { listId, groupId }) => {
    await loadManualList(ctx.db, listId, "add");
    if (!(await ctx.db.get("voterGroups", groupId))) throw appError("NOT_FOUND");
    await addGroupToListStep(ctx, listId, groupId, null);
    return null;
  },
});

export const addGroupStep = internalMutation({
  args: { listId: v.id("emailLists"), groupId: v.id("voterGroups"), cursor: v.union(v.string(), v.null()) },
  returns: v.null(),
  handler: async (ctx, { listId, groupId, cursor }) => {
    await addGroupToListStep(ctx, listId, groupId, cursor);
    return null;
  },
});

export const removeContact = orgMutation("campaigns.manage")({
  args: { listId: v.id("emailLists"), voterId: v.id("voters") },
  returns: v.null(),
  handler: async (ctx, { listId, voterId }) => {
    const list = await loadManualList(ctx.db, listId, "remove");
    const row = await ctx.db
      .query("emailListContacts")
      .withIndex("by_list_voter", (q) => q.eq("listId", listId).eq("voterId", voterId))
      .first();
    if (!row || row.status !== "active") throw appError("NOT_FOUND");
    await ctx.db.patch("emailListContacts", row._id, { status: "removed" });
    await ctx.db.patch("emailLists", list._id, {
      contactCount: Math.max(0, list.contactCount - 1),
      updatedAt: Date.now(),
    });
    return null;
  },
});
