/** The sidebar reaches every screen a role may work on in the modes it holds (issue 33: Campaign Manager's menus). */
import { describe, expect, test } from "vitest";
import { builtInRole, rolePermissions } from "@convex/lib/permissions";
import { navigationFor } from "@/app/shell/navigation";

describe("navigation", () => {
  test("a Campaign Manager (campaign mode only) finds CTA Creator, CTA Database and Signature Verification", () => {
    const cm = builtInRole("campaign_manager")!;
    expect(cm.modes).toEqual(["campaign"]);
    const menu = navigationFor("campaign");
    const labels = menu.map((i) => i.label);
    for (const label of ["CTA Creator", "CTA Database", "Signature Verification"]) expect(labels).toContain(label);
    const held = rolePermissions(cm);
    for (const item of menu.filter((i) =>
      ["CTA Creator", "CTA Database", "Signature Verification"].includes(i.label),
    )) {
      expect(item.permission !== undefined && held.has(item.permission)).toBe(true);
    }
  });

  test("Districts and Walk Lists show to the roles that can open them: not Walk Lists to a Viewer", () => {
    const menu = navigationFor("campaign");
    const shown = (role: string) => {
      const held = rolePermissions(builtInRole(role)!);
      return menu.filter((i) => !i.permission || held.has(i.permission)).map((i) => i.label);
    };
    for (const role of ["campaign_manager", "volunteer"])
      expect(shown(role)).toEqual(expect.arrayContaining(["Districts", "Walk Lists"]));
    expect(shown("viewer")).toContain("Districts");
    expect(shown("viewer")).not.toContain("Walk Lists");
  });
});
