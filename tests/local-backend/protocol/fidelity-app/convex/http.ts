/** Routes of the fidelity app: `ctx.auth` in http actions, and failing http actions. */
import { httpActionGeneric, httpRouter, makeFunctionReference } from "convex/server";
import { ConvexError } from "convex/values";

const http = httpRouter();
const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { "Content-Type": "application/json" } });

/** getUserIdentity() as is: a bad Bearer token makes it throw, failing the action */
http.route({
  path: "/whoami",
  method: "GET",
  handler: httpActionGeneric(async (ctx) => json((await ctx.auth.getUserIdentity())?.tokenIdentifier ?? null)),
});

/** the error getUserIdentity() throws, caught; and what a query called from here sees */
http.route({
  path: "/whoami-caught",
  method: "GET",
  handler: httpActionGeneric(async (ctx) => {
    const nested = await ctx.runQuery(makeFunctionReference<"query">("whoami:query"), {});
    try {
      return json({ identity: (await ctx.auth.getUserIdentity())?.tokenIdentifier ?? null, nested });
    } catch (e) {
      return json({ error: (e as Error).message, nested });
    }
  }),
});

http.route({
  path: "/convex-error",
  method: "POST",
  handler: httpActionGeneric(async () => {
    throw new ConvexError({ code: "QUOTA", remaining: 0n, tags: ["a", "b"] });
  }),
});

http.route({
  path: "/convex-error-string",
  method: "GET",
  handler: httpActionGeneric(async () => {
    throw new ConvexError("plain message");
  }),
});

http.route({
  path: "/error",
  method: "GET",
  handler: httpActionGeneric(async () => {
    throw new Error("boom");
  }),
});

export default http;
