/**
 * Subscription plans (spec/3 §9.1, §9.3). Pure TypeScript shared by the server (limits, prices of
 * recorded plan changes) and the browser (plan cards, usage meters).
 */
import { v, type Infer } from "convex/values";

export const vPlanId = v.union(v.literal("starter"), v.literal("professional"), v.literal("enterprise"));
export type PlanId = Infer<typeof vPlanId>;
export type BillingCycle = "monthly" | "yearly";

/** -1 means unlimited. Storage in GB. SMS: message segments per calendar month (spec/2 §9: 500, 2,000, 5,000). Active forms: 3 on the first plan (spec/2 §9 "Essential"). */
export const vPlanLimits = v.object({
  voters: v.number(),
  campaigns: v.number(),
  surveys: v.number(),
  storage: v.number(),
  users: v.number(),
  smsSegments: v.number(),
  emails: v.number(),
  activeForms: v.number(),
});
export type PlanLimits = Infer<typeof vPlanLimits>;

export type Plan = {
  id: PlanId;
  name: string;
  /** dollars per month */
  price: number;
  /** dollars per year on the billing page */
  yearlyPrice: number;
  popular: boolean;
  limits: PlanLimits;
  features: string[];
};

export const UNLIMITED = -1;

export const PLANS: Plan[] = [
  {
    id: "starter",
    name: "Starter",
    price: 29,
    yearlyPrice: 290,
    popular: false,
    limits: {
      voters: 1000,
      campaigns: 5,
      surveys: 10,
      storage: 1,
      users: 3,
      smsSegments: 500,
      emails: 2000,
      activeForms: 3,
    },
    features: ["Basic email support", "Standard templates", "Basic analytics"],
  },
  {
    id: "professional",
    name: "Professional",
    price: 79,
    yearlyPrice: 790,
    popular: true,
    limits: {
      voters: 10000,
      campaigns: UNLIMITED,
      surveys: 50,
      storage: 10,
      users: 10,
      smsSegments: 2000,
      emails: 10000,
      activeForms: UNLIMITED,
    },
    features: ["Priority email support", "Custom templates", "Advanced analytics", "API access", "Team collaboration"],
  },
  {
    id: "enterprise",
    name: "Enterprise",
    price: 199,
    yearlyPrice: 1990,
    popular: false,
    limits: {
      voters: UNLIMITED,
      campaigns: UNLIMITED,
      surveys: UNLIMITED,
      storage: 100,
      users: UNLIMITED,
      smsSegments: 5000,
      emails: 50000,
      activeForms: UNLIMITED,
    },
    features: [
      "24/7 phone support",
      "Custom integrations",
      "Advanced security",
      "Dedicated account manager",
      "Training sessions",
    ],
  },
];

export const PLAN_IDS = PLANS.map((p) => p.id);
export const GB = 1024 * 1024 * 1024;

export function planById(id: string): Plan | undefined {
  return PLANS.find((p) => p.id === id);
}

/** The plan of a stored tier, Starter for anything unknown. */
export function planOrStarter(id: string): Plan {
  return planById(id) ?? PLANS[0];
}

export function planPrice(plan: Plan, cycle: BillingCycle): number {
  return cycle === "yearly" ? plan.yearlyPrice : plan.price;
}

/** Percentage of a limit in use, 0 for an unlimited limit, capped at 100. */
export function usagePercent(used: number, limit: number): number {
  if (limit === UNLIMITED || limit <= 0) return 0;
  return Math.min(100, Math.round((used / limit) * 1000) / 10);
}

/** Usage bar colour: green below 50 %, yellow below 80 %, red at 80 % or more. */
export function usageColor(percent: number): "green" | "yellow" | "red" {
  if (percent < 50) return "green";
  if (percent < 80) return "yellow";
  return "red";
}

/** The plan button's label: Upgrade when the plan costs more than Starter, else Downgrade. */
export function planActionLabel(plan: Plan): "Upgrade" | "Downgrade" {
  return plan.price > PLANS[0].price ? "Upgrade" : "Downgrade";
}

export function formatLimit(limit: number, unit = ""): string {
  return limit === UNLIMITED ? "Unlimited" : `${limit.toLocaleString("en-US")}${unit}`;
}

export function billingDescription(plan: Plan, cycle: BillingCycle): string {
  return `${plan.name} Plan - ${cycle === "yearly" ? "Yearly" : "Monthly"}`;
}
