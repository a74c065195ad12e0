import { describe, expect, test } from "vitest";
import { planActionLabel, planById, planPrice, PLANS, usageColor, usagePercent } from "@convex/lib/plans";

describe("plans (spec/3 §9.1, §9.3)", () => {
  test("prices and limits", () => {
    expect(PLANS.map((p) => [p.id, p.price, p.yearlyPrice])).toEqual([
      ["starter", 29, 290],
      ["professional", 79, 790],
      ["enterprise", 199, 1990],
    ]);
    expect(PLANS.map((p) => p.limits.users)).toEqual([3, 10, -1]);
    expect(PLANS.map((p) => p.limits.storage)).toEqual([1, 10, 100]);
    expect(planPrice(planById("professional")!, "yearly")).toBe(790);
  });
  test("usage percentage and colours; unlimited shows 0%", () => {
    expect(usagePercent(450, 1000)).toBe(45);
    expect(usagePercent(5, -1)).toBe(0);
    expect(usagePercent(2000, 1000)).toBe(100);
    expect([usageColor(49.9), usageColor(50), usageColor(79.9), usageColor(80)]).toEqual([
      "green",
      "yellow",
      "yellow",
      "red",
    ]);
  });
  test("Upgrade/Downgrade compares with the Starter price", () => {
    expect(PLANS.map(planActionLabel)).toEqual(["Downgrade", "Upgrade", "Upgrade"]);
  });
});
