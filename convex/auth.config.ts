// Identity providers whose JWTs the backend accepts: Convex Auth (this deployment's own site URL)
// and, when configured, Clerk.
const providers: { domain: string; applicationID: string }[] = [
  { domain: process.env.CONVEX_SITE_URL!, applicationID: "convex" },
];
if (process.env.CLERK_JWT_ISSUER_DOMAIN) {
  providers.push({ domain: process.env.CLERK_JWT_ISSUER_DOMAIN, applicationID: "convex" });
}

export default { providers };
