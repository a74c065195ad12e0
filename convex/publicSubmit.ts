/**
 * Rate limits of the public respondent endpoints (forms, surveys): fill-token requests per client
 * address; submissions per address (per kind), per form or survey, and overall.
 */
import { defineRateLimits } from "convex-helpers/server/rateLimit";
import { v } from "convex/values";
import { internalMutation } from "./functions";
import {
  SUBMIT_RATE_GLOBAL,
  SUBMIT_RATE_PER_ADDRESS,
  SUBMIT_RATE_PER_TARGET,
  START_RATE_PER_ADDRESS,
} from "./model/publicSubmit";

const { rateLimit } = defineRateLimits({
  publicSubmitPerAddress: {
    kind: "token bucket",
    rate: SUBMIT_RATE_PER_ADDRESS,
    period: 60_000,
    capacity: SUBMIT_RATE_PER_ADDRESS,
  },
  publicSubmitPerTarget: {
    kind: "token bucket",
    rate: SUBMIT_RATE_PER_TARGET,
    period: 60_000,
    capacity: SUBMIT_RATE_PER_TARGET,
  },
  publicSubmitGlobal: {
    kind: "token bucket",
    rate: SUBMIT_RATE_GLOBAL,
    period: 60_000,
    capacity: SUBMIT_RATE_GLOBAL,
    shards: 4,
  },
  publicStartPerAddress: {
    kind: "token bucket",
    rate: START_RATE_PER_ADDRESS,
    period: 60_000,
    capacity: START_RATE_PER_ADDRESS,
  },
});

/** Whether this request may go on: token requests per address; submissions per address (per kind), per target and overall. */
export const admit = internalMutation({
  args: {
    kind: v.union(v.literal("form"), v.literal("survey")),
    target: v.string(),
    address: v.string(),
    phase: v.union(v.literal("start"), v.literal("submit")),
  },
  returns: v.boolean(),
  handler: async (ctx, { kind, target, address, phase }) => {
    if (phase === "start") return (await rateLimit(ctx, { name: "publicStartPerAddress", key: address })).ok;
    if (!(await rateLimit(ctx, { name: "publicSubmitPerAddress", key: `${kind}:${address}` })).ok) return false;
    if (!(await rateLimit(ctx, { name: "publicSubmitPerTarget", key: `${kind}:${target}` })).ok) return false;
    return (await rateLimit(ctx, { name: "publicSubmitGlobal" })).ok;
  },
});
