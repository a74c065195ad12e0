/**
 * Payment methods: a recorded billing profile (no payment processor). Only the cardholder, brand,
 * last four digits and expiry are ever sent or stored. Needs payment_methods.manage.
 */
import { v } from "convex/values";
import { orgMutation, orgQuery } from "./functions";
import { appError } from "./lib/errors";
import { billingTables } from "./tables/billing";

/** A card as the billing page lists it (what is stored of it, and whether the subscription uses it). */
const vPaymentMethodRow = billingTables.paymentMethods.validator
  .pick("name", "brand", "last4", "expMonth", "expYear", "createdAt")
  .extend({ id: v.id("paymentMethods"), isSubscriptionMethod: v.boolean() });

export const list = orgQuery("payment_methods.manage")({
  args: {},
  returns: v.array(vPaymentMethodRow),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("paymentMethods")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .collect();
    const selected = ctx.viewer.org.subscription.paymentMethodId;
    return rows.map((r) => ({
      id: r._id,
      name: r.name,
      brand: r.brand,
      last4: r.last4,
      expMonth: r.expMonth,
      expYear: r.expYear,
      createdAt: r.createdAt,
      isSubscriptionMethod: r._id === selected,
    }));
  },
});

const BRANDS = ["visa", "mastercard", "amex", "discover", "diners", "jcb", "unionpay", "unknown"];

export const add = orgMutation("payment_methods.manage")({
  args: { name: v.string(), brand: v.string(), last4: v.string(), expMonth: v.string(), expYear: v.string() },
  returns: v.id("paymentMethods"),
  handler: async (ctx, args) => {
    const name = args.name.trim();
    const thisYear = new Date().getUTCFullYear();
    const year = Number(args.expYear);
    const month = Number(args.expMonth);
    if (!name || name.length > 200) throw appError("VALIDATION_ERROR", "Please enter the cardholder name.");
    if (!/^\d{4}$/.test(args.last4))
      throw appError("VALIDATION_ERROR", "The last four digits of the card are required.");
    if (!/^(0[1-9]|1[0-2])$/.test(args.expMonth) || !Number.isInteger(month))
      throw appError("VALIDATION_ERROR", "Expiry month must be 01 to 12.");
    if (!/^\d{4}$/.test(args.expYear) || year < thisYear || year > thisYear + 9) {
      throw appError("VALIDATION_ERROR", `Expiry year must be ${thisYear} to ${thisYear + 9}.`);
    }
    const brand = BRANDS.includes(args.brand) ? args.brand : "unknown";
    const id = await ctx.db.insert("paymentMethods", {
      orgId: ctx.viewer.orgId,
      name,
      brand,
      last4: args.last4,
      expMonth: args.expMonth,
      expYear: args.expYear,
      createdAt: Date.now(),
    });
    return id;
  },
});

/** Removes a payment method; a subscription that used it keeps running without one. */
export const remove = orgMutation("payment_methods.manage")({
  args: { id: v.id("paymentMethods") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const row = await ctx.db.get("paymentMethods", id);
    if (row === null) throw appError("NOT_FOUND");
    await ctx.db.delete("paymentMethods", id);
    const sub = ctx.viewer.org.subscription;
    if (sub.paymentMethodId === id) {
      const { paymentMethodId: _removed, ...rest } = sub;
      await ctx.db.patch("organizations", ctx.viewer.orgId, { subscription: rest });
    }
    return null;
  },
});
