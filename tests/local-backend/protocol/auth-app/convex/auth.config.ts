/** Convex Auth's configuration: the app itself is the OIDC issuer, audience "convex". */
export default {
  providers: [{ domain: process.env.CONVEX_SITE_URL, applicationID: "convex" }],
};
