/** Campaigns, read side for the SMS center (members with campaigns.view). Sending arrives with the SMS issue. */
import { orgQuery } from "./functions";
import { readCounters } from "./model/counters";

export const SMS_HISTORY_LIMIT = 100;

/** The organisation's SMS campaigns, newest first, with the SMS center's tile figures. */
export const listSms = orgQuery("campaigns.view")({
  args: {},
  handler: async (ctx) => {
    const orgId = ctx.viewer.orgId;
    const rows = await ctx.db
      .query("campaigns")
      .withIndex("by_org_type", (q) => q.eq("orgId", orgId).eq("campaign_type", "sms"))
      .order("desc")
      .collect();
    const counters = await readCounters(ctx, orgId);
    return {
      total: rows.length,
      messagesSent: counters.messagesSent,
      campaigns: rows.slice(0, SMS_HISTORY_LIMIT).map((c) => ({
        id: c._id,
        name: c.name,
        description: c.description,
        status: c.status,
        createdAt: c._creationTime,
        updatedAt: c.updatedAt,
      })),
    };
  },
});
