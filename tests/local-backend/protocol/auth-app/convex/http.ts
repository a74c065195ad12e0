/**
 * The two routes @convex-dev/auth adds (`auth.addHttpRoutes`), reduced to what token verification
 * needs: the backend must fetch these from the app's own site URL to verify its tokens.
 */
import { httpActionGeneric, httpRouter } from "convex/server";

const http = httpRouter();

http.route({
  path: "/.well-known/openid-configuration",
  method: "GET",
  handler: httpActionGeneric(async () => {
    const site = process.env.CONVEX_SITE_URL;
    return new Response(
      JSON.stringify({ issuer: site, jwks_uri: `${site}/.well-known/jwks.json`, authorization_endpoint: `${site}/oauth/authorize` }),
      { status: 200, headers: { "Content-Type": "application/json" } },
    );
  }),
});

http.route({
  path: "/.well-known/jwks.json",
  method: "GET",
  handler: httpActionGeneric(async () => {
    const jwks = process.env.JWKS;
    if (!jwks) return new Response("JWKS not set", { status: 500 });
    return new Response(jwks, { status: 200, headers: { "Content-Type": "application/json" } });
  }),
});

/** An app route that reads `ctx.auth`, as http actions do on Convex with a Bearer token. */
http.route({
  path: "/whoami",
  method: "GET",
  handler: httpActionGeneric(async (ctx) => {
    const identity = await ctx.auth.getUserIdentity();
    return new Response(JSON.stringify(identity?.tokenIdentifier ?? null), { status: 200, headers: { "Content-Type": "application/json" } });
  }),
});

export default http;
