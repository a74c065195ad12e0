/**
 * Plans, usage and billing history (Subscription & Billing, Account Settings). Reading the plan and
 * usage: any member. Billing history: billing.manage. Changing the plan: subscription.manage.
 */
import { v } from "convex/values";
import type { Id } from "./_generated/dataModel";
import { orgMutation, orgQuery } from "./functions";
import { appError } from "./lib/errors";
import { billingDescription, GB, planById, planOrStarter, planPrice, PLANS, vPlanId, vPlanLimits } from "./lib/plans";
import { readCounters } from "./model/counters";
import { activeFormCount } from "./model/forms";
import { monthlyEmails } from "./model/emailEvents";
import { monthlySegments } from "./model/smsShared";
import { BILLING_PERIOD_MS } from "./model/orgs";
import { billingTables } from "./tables/billing";
import { coreTables } from "./tables/core";
import { TEXTS } from "./lib/texts";

const vSubscription = coreTables.organizations.validator.fields.subscription;

/** The current plan, its limits and the organisation's real usage. */
export const overview = orgQuery(null)({
  args: {},
  returns: v.object({
    tier: vPlanId,
    status: vSubscription.fields.status,
    billingCycle: vSubscription.fields.billingCycle,
    nextBillingDate: v.number(),
    amount: v.number(),
    paymentMethod: v.union(
      billingTables.paymentMethods.validator.pick("brand", "last4", "expMonth", "expYear"),
      v.null(),
    ),
    hasPaymentMethod: v.boolean(),
    /** the organisation's use of each limited measure */
    usage: vPlanLimits,
    limits: vPlanLimits,
  }),
  handler: async (ctx) => {
    const sub = ctx.viewer.org.subscription;
    const plan = planOrStarter(sub.tier);
    const counters = await readCounters(ctx, ctx.viewer.orgId);
    const members = await ctx.db
      .query("memberships")
      .withIndex("by_org_user", (q) => q.eq("orgId", ctx.viewer.orgId))
      .collect();
    const paymentMethods = await ctx.db
      .query("paymentMethods")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .collect();
    const method = sub.paymentMethodId ? paymentMethods.find((p) => p._id === sub.paymentMethodId) : undefined;
    return {
      tier: plan.id,
      status: sub.status,
      billingCycle: sub.billingCycle,
      nextBillingDate: sub.nextBillingDate,
      amount: planPrice(plan, sub.billingCycle),
      // Card details only for those who manage billing; everyone else learns whether one is on file.
      paymentMethod:
        method && ctx.viewer.can("billing.manage")
          ? { brand: method.brand, last4: method.last4, expMonth: method.expMonth, expYear: method.expYear }
          : null,
      hasPaymentMethod: paymentMethods.length > 0,
      usage: {
        voters: counters.voters,
        campaigns: counters.campaigns,
        surveys: counters.surveys,
        /** GB, from the storageBytes counter kept by the upload mutations */
        storage: counters.storageBytes / GB,
        users: members.filter((m) => m.status === "active").length,
        /** text message segments sent through the provider this month */
        smsSegments: await monthlySegments(ctx.db, ctx.viewer.orgId),
        /** emails sent through the provider this month (blasts) */
        emails: await monthlyEmails(ctx.db, ctx.viewer.orgId),
        activeForms: await activeFormCount(ctx.db, ctx.viewer.orgId),
      },
      limits: plan.limits,
    };
  },
});

/** Recorded plan changes, newest first. */
export const history = orgQuery("billing.manage")({
  args: {},
  returns: v.array(
    billingTables.billingHistory.validator
      .pick("date", "amount", "status", "description")
      .extend({ id: v.id("billingHistory") }),
  ),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("billingHistory")
      .withIndex("by_org_date", (q) => q.eq("orgId", ctx.viewer.orgId))
      .order("desc")
      .take(100);
    return rows.map((r) => ({
      id: r._id,
      date: r.date,
      amount: r.amount,
      status: r.status,
      description: r.description,
    }));
  },
});

export const PAYMENT_METHOD_REQUIRED = TEXTS.billing.paymentMethodRequired;

/**
 * Changes the plan: sets tier, cycle and payment method, moves the next billing date 30 days
 * ahead and records the change (with the plan's price) in the billing history.
 */
export const changePlan = orgMutation("subscription.manage")({
  args: {
    tier: v.string(),
    billingCycle: v.union(v.literal("monthly"), v.literal("yearly")),
    paymentMethodId: v.optional(v.id("paymentMethods")),
  },
  returns: v.object({ tier: vPlanId, nextBillingDate: v.number() }),
  handler: async (ctx, args) => {
    const plan = planById(args.tier);
    if (!plan) throw appError("VALIDATION_ERROR", `Unknown plan. Choose ${PLANS.map((p) => p.name).join(", ")}.`);
    let paymentMethodId: Id<"paymentMethods"> | undefined =
      args.paymentMethodId ?? ctx.viewer.org.subscription.paymentMethodId;
    if (paymentMethodId) {
      const method = await ctx.db.get("paymentMethods", paymentMethodId);
      if (method === null) throw appError("NOT_FOUND", "The selected payment method could not be found.");
    } else {
      const first = await ctx.db
        .query("paymentMethods")
        .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
        .first();
      paymentMethodId = first?._id;
    }
    if (!paymentMethodId) throw appError("VALIDATION_ERROR", PAYMENT_METHOD_REQUIRED, "Payment Method Required");
    const now = Date.now();
    await ctx.db.patch("organizations", ctx.viewer.orgId, {
      subscription: {
        tier: plan.id,
        status: "active",
        billingCycle: args.billingCycle,
        nextBillingDate: now + BILLING_PERIOD_MS,
        paymentMethodId,
      },
    });
    await ctx.db.insert("billingHistory", {
      orgId: ctx.viewer.orgId,
      date: now,
      amount: planPrice(plan, args.billingCycle),
      status: "paid",
      description: billingDescription(plan, args.billingCycle),
      tier: plan.id,
      billingCycle: args.billingCycle,
      paymentMethodId,
      changedBy: ctx.viewer.userId,
    });
    return { tier: plan.id, nextBillingDate: now + BILLING_PERIOD_MS };
  },
});
