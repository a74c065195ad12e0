/**
 * Providers of the fidelity app (jwt-strict and http-action-errors tests), each enabled by an
 * environment variable the test sets before starting the backend (issuers listen on random ports):
 * - FIDELITY_OIDC_DOMAIN: an OIDC issuer whose JWKS holds two keys (audience "fidelity").
 * - FIDELITY_SINGLE_DOMAIN: an OIDC issuer with one key and no key ids, like Convex Auth.
 * - FIDELITY_CUSTOM_ISSUER / FIDELITY_CUSTOM_JWKS: a customJwt provider (RS256, "fidelity-custom").
 */
type Provider =
  | { domain: string; applicationID: string }
  | { type: "customJwt"; issuer: string; jwks: string; algorithm: "RS256"; applicationID: string };

const providers: Provider[] = [];
if (process.env.FIDELITY_OIDC_DOMAIN) providers.push({ domain: process.env.FIDELITY_OIDC_DOMAIN, applicationID: "fidelity" });
if (process.env.FIDELITY_SINGLE_DOMAIN) providers.push({ domain: process.env.FIDELITY_SINGLE_DOMAIN, applicationID: "fidelity" });
if (process.env.FIDELITY_CUSTOM_ISSUER && process.env.FIDELITY_CUSTOM_JWKS) {
  providers.push({
    type: "customJwt",
    issuer: process.env.FIDELITY_CUSTOM_ISSUER,
    jwks: process.env.FIDELITY_CUSTOM_JWKS,
    algorithm: "RS256",
    applicationID: "fidelity-custom",
  });
}

export default { providers };
