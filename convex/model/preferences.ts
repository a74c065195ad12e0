/**
 * Personal settings: reading them with their defaults, checking a time zone and a default mode,
 * and the notification emails they govern (a member's opt-out is obeyed where the email is queued).
 */
import { TEXTS } from "../lib/texts";
import type { GenericDatabaseReader } from "convex/server";
import type { DataModel, Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { appError } from "../lib/errors";
import type { Mode } from "../lib/permissions";
import { DEFAULT_NOTIFICATIONS, type NotificationKind, type Preferences } from "../tables/preferences";
import { queueEmail } from "./emails";
import { normalizeEmail } from "./strings";

type Reader = GenericDatabaseReader<DataModel>;

export const DEFAULT_PREFERENCES: Preferences = {
  timeZone: null,
  defaultMode: null,
  notifications: DEFAULT_NOTIFICATIONS,
};

export async function preferencesRow(db: Reader, userId: Id<"users">): Promise<Doc<"userPreferences"> | null> {
  return await db
    .query("userPreferences")
    .withIndex("by_user", (q) => q.eq("userId", userId))
    .unique();
}

/** The user's settings, defaults filled in (a flag added later reads as its default). */
export async function readPreferences(db: Reader, userId: Id<"users">): Promise<Preferences> {
  const row = await preferencesRow(db, userId);
  if (row === null) return DEFAULT_PREFERENCES;
  return {
    timeZone: row.timeZone,
    defaultMode: row.defaultMode,
    notifications: { ...DEFAULT_NOTIFICATIONS, ...row.notifications },
  };
}

/** The IANA name of a time zone the runtime knows (canonical spelling), or a refusal. */
export function cleanTimeZone(raw: string): string {
  const tz = raw.trim();
  let resolved: string | null = null;
  if (tz.length > 0 && tz.length <= 64 && /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(tz)) {
    try {
      resolved = new Intl.DateTimeFormat("en-US", { timeZone: tz }).resolvedOptions().timeZone;
    } catch {
      resolved = null;
    }
  }
  if (!resolved)
    throw appError(
      "VALIDATION_ERROR",
      `"${tz.slice(0, 64)}" is not a time zone. Choose one from the list.`,
      "Unknown time zone",
    );
  return resolved;
}

/** Refuses a default mode the member's roles do not allow. */
export function checkDefaultMode(mode: Mode, allowed: readonly Mode[]) {
  if (!allowed.includes(mode))
    throw appError(
      "VALIDATION_ERROR",
      "Your roles do not allow that mode. Choose one of the modes you can work in.",
      "Mode not available",
    );
}

/**
 * Whether an email of `kind` may go to `address` in `orgId`: not when a member of that
 * organisation with that address has turned it off. Other addresses (a shared inbox) always get it.
 */
export async function addressWants(
  db: Reader,
  orgId: Id<"organizations">,
  address: string,
  kind: NotificationKind,
): Promise<boolean> {
  const variants = [...new Set([address.trim(), normalizeEmail(address)])];
  for (const email of variants) {
    const users = await db
      .query("users")
      .withIndex("email", (q) => q.eq("email", email))
      .take(5);
    for (const user of users) {
      const member = await db
        .query("memberships")
        .withIndex("by_org_user", (q) => q.eq("orgId", orgId).eq("userId", user._id))
        .first();
      if (member && !(await readPreferences(db, user._id)).notifications[kind]) return false;
    }
  }
  return true;
}

/** "… accepted your invitation": to the member who sent it, unless they turned it off. */
export async function notifyInvitationAccepted(
  ctx: MutationCtx,
  invitation: Pick<Doc<"invitations">, "orgId" | "invitedBy" | "firstName" | "lastName" | "email">,
) {
  const inviter = await ctx.db.get("users", invitation.invitedBy);
  if (!inviter?.email) return;
  if (!(await readPreferences(ctx.db, inviter._id)).notifications.invitationAccepted) return;
  const org = await ctx.db.get("organizations", invitation.orgId);
  const who = `${invitation.firstName} ${invitation.lastName}`.trim() || invitation.email;
  const orgName = org?.name ?? "your organization";
  const origin = (process.env.SITE_URL ?? "").replace(/\/+$/, "");
  await queueEmail(ctx, {
    orgId: invitation.orgId,
    to: inviter.email,
    kind: "invitation_accepted",
    subject: `${who} joined ${orgName} on Precinct`,
    text: [
      `${who} (${invitation.email}) accepted your invitation and is now a member of ${orgName}.`,
      "",
      `You get this email because you sent the invitation. To stop these emails, turn off "${TEXTS.preferences.invitedJoins}" in Settings: ${origin}/settings`,
    ].join("\n"),
  });
}
