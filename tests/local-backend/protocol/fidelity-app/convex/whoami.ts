import { actionGeneric, queryGeneric } from "convex/server";

export const query = queryGeneric({
  args: {},
  handler: async (ctx) => await ctx.auth.getUserIdentity(),
});

export const action = actionGeneric({
  args: {},
  handler: async (ctx) => await ctx.auth.getUserIdentity(),
});
