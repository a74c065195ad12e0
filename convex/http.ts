/**
 * HTTP actions: Convex Auth's OIDC/JWKS routes, the client error-report endpoint, the sign-in
 * ticket, the operator's demo mailbox, public form and survey submissions, clicks on embedded CTAs, email unsubscribes, and Resend's and Twilio's webhooks. Browser-facing routes answer CORS for the web app's own
 * origins only (SITE_URL, plus CORS_ALLOWED_ORIGINS), never with credentials: callers
 * authenticate with bearer tokens, not cookies.
 */
import { httpRouter } from "convex/server";
import { corsRouter } from "convex-helpers/server/cors";
import { auth } from "./auth";
import { click as ctaClick } from "./ctas";
import { devMailbox } from "./emails";
import { oneClick as emailUnsubscribe } from "./emailUnsubscribe";
import { resendWebhook } from "./emailWebhooks";
import { reportErrors } from "./errorReports";
import { issueSignInTicket } from "./authThrottle";
import { startFill, submit as submitForm } from "./formSubmissions";
import { twilioInbound, twilioStatus } from "./smsWebhooks";
import { startSurvey, submitSurvey, surveyPreflight } from "./surveySubmissions";

/** The web app's origins: SITE_URL and any extra ones configured for this deployment. */
export function appOrigins(): string[] {
  const extra = (process.env.CORS_ALLOWED_ORIGINS ?? "")
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean);
  const site = process.env.SITE_URL ? [new URL(process.env.SITE_URL).origin] : [];
  return [...site, ...extra];
}

const http = httpRouter();
auth.addHttpRoutes(http);

const cors = corsRouter(http, {
  allowedOrigins: async () => appOrigins(),
  allowedHeaders: ["Content-Type", "Authorization", "X-Error-Report"],
  allowCredentials: false,
});
cors.route({ path: "/api/errors", method: "POST", handler: reportErrors });
cors.route({ path: "/api/auth/ticket", method: "POST", handler: issueSignInTicket });
cors.route({ path: "/api/dev/mailbox", method: "GET", handler: devMailbox });
// public forms: the form page (our origin, also inside other sites' iframes) posts here
cors.route({ path: "/api/forms/start", method: "POST", handler: startFill });
cors.route({ path: "/api/forms/submit", method: "POST", handler: submitForm });

// surveys: the spec's embed posts from any site (CORS for every origin, never with credentials)
for (const path of ["/api/surveys/start", "/api/survey-submissions"]) {
  http.route({ path, method: "OPTIONS", handler: surveyPreflight });
}
http.route({ path: "/api/surveys/start", method: "POST", handler: startSurvey });
http.route({ path: "/api/survey-submissions", method: "POST", handler: submitSurvey });

// embedded CTAs: a click counts and goes to the element's stored link (a plain navigation, no CORS)
http.route({ path: "/api/cta/click", method: "GET", handler: ctaClick });

// email: one-click unsubscribe (mail clients post without an Origin; the unsubscribe page posts from ours)
cors.route({ path: "/api/email/unsubscribe", method: "POST", handler: emailUnsubscribe });
// Resend's webhooks: server to server (no CORS), svix-signed
http.route({ path: "/api/resend/webhook", method: "POST", handler: resendWebhook });

// Twilio's webhooks: server to server (no CORS), signature-verified
http.route({ path: "/api/twilio/status", method: "POST", handler: twilioStatus });
http.route({ path: "/api/twilio/inbound", method: "POST", handler: twilioInbound });

export default http;
