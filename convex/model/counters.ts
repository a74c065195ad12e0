/**
 * Live per-organisation counters, kept by the mutations that change the counted rows so the
 * dashboard and usage meters never scan a million-row table.
 */
import type { Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";

export const COUNTERS = [
  "voters",
  "voterGroups",
  "campaigns",
  "messagesSent",
  "emailsSent",
  "forms",
  "formSubmissions",
  "surveys",
  "imports",
  "storageBytes",
] as const;
export type CounterName = (typeof COUNTERS)[number];

export async function adjustCounter(ctx: MutationCtx, orgId: Id<"organizations">, name: CounterName, delta: number) {
  if (delta === 0) return;
  const row = await ctx.db
    .query("orgCounters")
    .withIndex("by_org_name", (q) => q.eq("orgId", orgId).eq("name", name))
    .unique();
  if (row) await ctx.db.patch("orgCounters", row._id, { value: Math.max(0, row.value + delta) });
  else await ctx.db.insert("orgCounters", { orgId, name, value: Math.max(0, delta) });
}

export async function readCounters(ctx: QueryCtx, orgId: Id<"organizations">): Promise<Record<CounterName, number>> {
  const rows = await ctx.db
    .query("orgCounters")
    .withIndex("by_org_name", (q) => q.eq("orgId", orgId))
    .collect();
  const out = Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Record<CounterName, number>;
  for (const r of rows) if ((COUNTERS as readonly string[]).includes(r.name)) out[r.name as CounterName] = r.value;
  return out;
}
