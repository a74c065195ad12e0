/**
 * Unsubscribing (RFC 8058; CAN-SPAM): every bulk email links to /unsubscribe?t=<token> and names
 * POST {site}/api/email/unsubscribe?t=<token> in List-Unsubscribe with List-Unsubscribe-Post:
 * mail clients' one-click button posts "List-Unsubscribe=One-Click" there, and the page posts the
 * same. One mutation suppresses the address for the organisation; sends in flight skip it from
 * their next batch on. The token is the message's unguessable secret; nothing else is needed.
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { httpAction, internalMutation, publicQuery } from "./functions";
import { clientAddress } from "./model/clientAddress";
import { emailPublicRateLimit, unsubscribeByToken } from "./model/emailEvents";
import { TEXTS } from "./lib/texts";

const MAX_TOKEN = 100;
const MAX_BODY = 1_000;

/** "a•••@example.org": enough for its owner to recognise, little for anyone else. */
export function maskEmail(email: string): string {
  const [local, domain] = email.split("@");
  return `${local.slice(0, 1)}\u2022\u2022\u2022@${domain ?? ""}`;
}

/** What the unsubscribe page shows for a link (null: not a valid link). */
export const info = publicQuery({
  args: { token: v.string() },
  returns: v.union(v.null(), v.object({ orgName: v.string(), email: v.string(), unsubscribed: v.boolean() })),
  handler: async (ctx, { token }) => {
    if (token.length === 0 || token.length > MAX_TOKEN) return null;
    const m = await ctx.db
      .query("emailMessages")
      .withIndex("by_token", (q) => q.eq("unsubToken", token))
      .unique();
    if (!m) return null;
    const org = await ctx.db.get("organizations", m.orgId);
    const rows = await ctx.db
      .query("emailSuppressions")
      .withIndex("by_org_email", (q) => q.eq("orgId", m.orgId).eq("email", m.email))
      .take(3);
    return {
      orgName: org?.name ?? "this organisation",
      email: maskEmail(m.email),
      unsubscribed: rows.some((r) => r.reason === "unsubscribed"),
    };
  },
});

export const unsubscribe = internalMutation({
  args: {
    token: v.string(),
    client: v.string(),
    /** the page's button (a browser, with an Origin) or a mail client's List-Unsubscribe one-click (no Origin) */
    via: v.optional(v.union(v.literal("unsubscribe_link"), v.literal("unsubscribe_header"))),
  },
  returns: v.union(v.literal("ok"), v.literal("unknown"), v.literal("limited")),
  handler: async (ctx, { token, client, via }) => {
    for (const [name, key] of [
      ["unsubscribePerClient", client],
      ["unsubscribeGlobal", undefined],
    ] as const) {
      const { ok } = await emailPublicRateLimit(ctx, { name, key });
      if (!ok) return "limited";
    }
    return (await unsubscribeByToken(ctx, token, { source: via ?? "unsubscribe_link", address: client }))
      ? "ok"
      : "unknown";
  },
});

/** POST /api/email/unsubscribe?t=<token> (one-click, RFC 8058; also the page's button). */
export const oneClick = httpAction(async (ctx, request) => {
  const text = (status: number, body: string) =>
    new Response(body, {
      status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  const token = new URL(request.url).searchParams.get("t") ?? "";
  if (!token || token.length > MAX_TOKEN || !/^[A-Za-z0-9_-]+$/.test(token))
    return text(400, TEXTS.email.unsubscribeInvalid);
  const length = Number(request.headers.get("Content-Length") ?? 0);
  if (length > MAX_BODY) return text(413, "Request too large.");
  const body = (await request.text()).slice(0, MAX_BODY);
  // RFC 8058: the body is "List-Unsubscribe=One-Click"; an empty body (a plain form post) is accepted too
  if (body.trim() !== "" && !new URLSearchParams(body).has("List-Unsubscribe"))
    return text(400, "Expected List-Unsubscribe=One-Click.");
  const result = await ctx.runMutation(internal.emailUnsubscribe.unsubscribe, {
    token,
    client: clientAddress(request),
    // the consent ledger's provenance: browsers send an Origin (our page), mail clients' one-click posts none
    via: request.headers.get("Origin") ? "unsubscribe_link" : "unsubscribe_header",
  });
  if (result === "limited")
    return new Response(TEXTS.email.tooManyRequests, { status: 429, headers: { "Retry-After": "60" } });
  if (result === "unknown") return text(404, TEXTS.email.unsubscribeInvalid);
  return text(200, "You have been unsubscribed.");
});
