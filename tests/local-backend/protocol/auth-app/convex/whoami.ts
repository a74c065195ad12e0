import { queryGeneric } from "convex/server";

export const get = queryGeneric({
  args: {},
  handler: async (ctx) => await ctx.auth.getUserIdentity(),
});
