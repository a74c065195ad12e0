/**
 * Personal settings (/settings): one row per user, whatever organisation they work in. The time
 * zone the app shows their times in (null: the browser's), the mode the app starts in on a device
 * with no stored choice (null: the first their roles allow), and which notification emails
 * addressed to them personally they want.
 */
import { defineTable } from "convex/server";
import { v, type Infer } from "convex/values";
import { vMode } from "./core";

/** The notification emails a member may turn off; each is sent only while its flag is on. */
export const vNotificationPrefs = v.object({
  /** "New response to …" when a survey's notifications go to the member's own address */
  surveyResponses: v.boolean(),
  /** "… accepted your invitation" to the member who sent it */
  invitationAccepted: v.boolean(),
});
export type NotificationPrefs = Infer<typeof vNotificationPrefs>;
export type NotificationKind = keyof NotificationPrefs;
export const DEFAULT_NOTIFICATIONS: NotificationPrefs = { surveyResponses: true, invitationAccepted: true };

export const vPreferences = v.object({
  timeZone: v.union(v.string(), v.null()),
  defaultMode: v.union(vMode, v.null()),
  notifications: vNotificationPrefs,
});
export type Preferences = Infer<typeof vPreferences>;

export const preferenceTables = {
  userPreferences: defineTable({
    userId: v.id("users"),
    ...vPreferences.fields,
    updatedAt: v.number(),
  }).index("by_user", ["userId"]),
};
