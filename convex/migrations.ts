/**
 * One-off data migrations, run by an operator with the admin key (`npx convex run
 * migrations:recountVoterTally`), never by a tenant. Each is a cursor-driven chain of mutations.
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { internalMutation } from "./functions";
import { startDoorBuild } from "./model/doors";

const PAGE = 1000;

/**
 * Rebuilds every organisation's voters-per-(party, status) tally from its voters (the tally
 * began with this release; voters stored before it are counted here). Run it while no import is
 * running: the tally rows are replaced at the end of each organisation's count.
 */
export const recountVoterTally = internalMutation({
  args: { orgCursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.null(),
  handler: async (ctx, { orgCursor }) => {
    const orgs = await ctx.db.query("organizations").paginate({ numItems: 50, cursor: orgCursor ?? null });
    for (const org of orgs.page)
      await ctx.scheduler.runAfter(0, internal.migrations.recountOrgTally, {
        orgId: org._id,
        cursor: null,
        counts: {},
      });
    if (!orgs.isDone)
      await ctx.scheduler.runAfter(0, internal.migrations.recountVoterTally, { orgCursor: orgs.continueCursor });
    return null;
  },
});

export const recountOrgTally = internalMutation({
  args: {
    orgId: v.id("organizations"),
    cursor: v.union(v.string(), v.null()),
    counts: v.record(v.string(), v.number()),
  },
  returns: v.null(),
  handler: async (ctx, { orgId, cursor, counts }) => {
    const page = await ctx.db
      .query("voters")
      .withIndex("by_org", (q) => q.eq("orgId", orgId))
      .paginate({ numItems: PAGE, cursor });
    const next = { ...counts };
    for (const voter of page.page) {
      const key = JSON.stringify([voter.party_affiliation ?? "", voter.status ?? ""]);
      next[key] = (next[key] ?? 0) + 1;
    }
    if (!page.isDone) {
      await ctx.scheduler.runAfter(0, internal.migrations.recountOrgTally, {
        orgId,
        cursor: page.continueCursor,
        counts: next,
      });
      return null;
    }
    for (const row of await ctx.db
      .query("voterTally")
      .withIndex("by_org_party_status", (q) => q.eq("orgId", orgId))
      .collect())
      await ctx.db.delete("voterTally", row._id);
    for (const [key, count] of Object.entries(next)) {
      const [party, status] = JSON.parse(key) as [string, string];
      await ctx.db.insert("voterTally", { orgId, party, status, count });
    }
    return null;
  },
});

/**
 * Records who owns each file stored before uploads were owned (model/files.ts): the organisation of
 * the image or petition page that uses it, so that deleting the record deletes the file. A file
 * two organisations' records name (possible before ownership) goes to the first one met, images
 * before pages (an image was registered by its uploader; a page could name anyone's file).
 */
export const ownStoredFiles = internalMutation({
  args: {
    table: v.optional(v.union(v.literal("images"), v.literal("petitionPages"))),
    cursor: v.optional(v.union(v.string(), v.null())),
  },
  returns: v.null(),
  handler: async (ctx, { table = "images", cursor = null }) => {
    const own = async (
      orgId: Id<"organizations">,
      storageId: Id<"_storage">,
      purpose: "image" | "petitionPage",
      contentType: string,
      at: number,
      by: Id<"users"> | null,
    ) => {
      if (
        await ctx.db
          .query("files")
          .withIndex("by_storage", (q) => q.eq("storageId", storageId))
          .unique()
      )
        return;
      const meta = await ctx.db.system.get("_storage", storageId);
      if (!meta) return;
      await ctx.db.insert("files", {
        orgId,
        storageId,
        purpose,
        contentType,
        size: meta.size,
        uploadedBy: by,
        createdAt: at,
        attachedAt: at,
      });
    };
    if (table === "images") {
      const page = await ctx.db.query("images").paginate({ numItems: PAGE, cursor });
      for (const image of page.page)
        await own(image.orgId, image.storageId, "image", image.contentType, image.createdAt, image.createdBy);
      await ctx.scheduler.runAfter(
        0,
        internal.migrations.ownStoredFiles,
        page.isDone ? { table: "petitionPages", cursor: null } : { table, cursor: page.continueCursor },
      );
      return null;
    }
    const page = await ctx.db.query("petitionPages").paginate({ numItems: PAGE, cursor });
    for (const p of page.page)
      if (p.fileId) await own(p.orgId, p.fileId, "petitionPage", p.contentType, p._creationTime, null);
    if (!page.isDone)
      await ctx.scheduler.runAfter(0, internal.migrations.ownStoredFiles, { table, cursor: page.continueCursor });
    return null;
  },
});

/**
 * Packs every organisation's door cells again (a door build: voters already on their doors stay,
 * every cell is rewritten once at its end), so cells packed before the turf filters' fields existed
 * (`doorCells.held`, `doorCellVoters`) get them. Until then a filtered count treats such a cell's
 * voters as matching.
 */
export const repackDoorCells = internalMutation({
  args: { orgCursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.null(),
  handler: async (ctx, { orgCursor }) => {
    const orgs = await ctx.db.query("organizations").paginate({ numItems: 50, cursor: orgCursor ?? null });
    for (const org of orgs.page) {
      const door = await ctx.db
        .query("doors")
        .withIndex("by_org_cell", (q) => q.eq("orgId", org._id))
        .first();
      if (door) await startDoorBuild(ctx, org._id);
    }
    if (!orgs.isDone)
      await ctx.scheduler.runAfter(0, internal.migrations.repackDoorCells, { orgCursor: orgs.continueCursor });
    return null;
  },
});
