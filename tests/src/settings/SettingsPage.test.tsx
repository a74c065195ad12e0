/**
 * /settings: the user's own time zone, default mode (only the modes the role allows) and
 * notification emails, each saved by its control; accessible.
 */
import { getFunctionName } from "convex/server";
import { act } from "react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { Mode } from "@convex/lib/permissions";
import { byTestId, click, expectNoAxeViolations, flush, mountRoot, type MountedRoot } from "../../support/render";

const state = {
  preferences: undefined as unknown,
  modes: ["campaign"] as Mode[],
  update: vi.fn(async (_args: unknown) => null),
};

vi.mock("convex/react", () => ({
  useQuery: (ref: unknown) => (getFunctionName(ref as never) === "preferences:mine" ? state.preferences : undefined),
  useMutation: () =>
    Object.assign((args: unknown) => state.update(args), {
      withOptimisticUpdate: () => (args: unknown) => state.update(args),
    }),
}));
vi.mock("@/session/ViewerProvider", () => ({
  MODE_LABELS: {
    campaign: { name: "Campaign" },
    petition: { name: "Petition" },
    relationship: { name: "Relationship" },
  },
  useViewer: () => ({ me: { email: "ada@example.org" }, permittedModes: state.modes, can: () => true }),
}));
// axe in jsdom takes seconds per hundred options: the page gets a short list here, the real one is checked below
vi.mock("@/lib/dateTime", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/dateTime")>()),
  timeZoneNames: () => ["America/Chicago", "America/New_York", "Asia/Kolkata", "Europe/Paris"],
}));
vi.mock("@/ui/toast", () => ({ toast: { success: vi.fn(), failure: vi.fn() } }));

const { SettingsPage } = await import("@/features/settings/SettingsPage");
const real = await vi.importActual<typeof import("@/lib/dateTime")>("@/lib/dateTime");

describe("SettingsPage", () => {
  let r: MountedRoot;
  beforeEach(() => {
    r = mountRoot();
    state.update.mockClear();
    state.preferences = {
      timeZone: "America/Chicago",
      defaultMode: null,
      notifications: { surveyResponses: true, invitationAccepted: false },
    };
  });
  afterEach(() => r.unmount());

  test("titled Settings; shows the chosen zone, the role's modes only, and the notification switches", async () => {
    state.modes = ["campaign"];
    r.render(<SettingsPage />, "/settings");
    const text = r.container.textContent ?? "";
    expect(r.container.querySelector("h1")?.textContent).toBe("Settings");
    expect(text).not.toMatch(/coming soon/i);
    const zone = byTestId(r.container, "settings.timeZone") as HTMLSelectElement;
    expect(zone.value).toBe("America/Chicago");
    expect([...zone.options].map((o) => o.value)).toEqual([
      "browser",
      "America/Chicago",
      "America/New_York",
      "Asia/Kolkata",
      "Europe/Paris",
    ]);
    const radios = [...r.container.querySelectorAll("[role='radio']")].map((b) => b.parentElement?.textContent);
    expect(radios).toEqual(["No default (start in Campaign mode)", "Campaign mode"]);
    expect(text).not.toContain("Petition mode");
    expect(byTestId(r.container, "settings.notify.surveyResponses")?.getAttribute("aria-checked")).toBe("true");
    expect(byTestId(r.container, "settings.notify.invitationAccepted")?.getAttribute("aria-checked")).toBe("false");
    expect(text).toContain("ada@example.org");
    await expectNoAxeViolations(r.container);
  });

  test("each control saves its own change", async () => {
    state.modes = ["campaign", "petition", "relationship"];
    r.render(<SettingsPage />, "/settings");
    const zone = byTestId(r.container, "settings.timeZone") as HTMLSelectElement;
    act(() => {
      zone.value = "Europe/Paris";
      zone.dispatchEvent(new Event("change", { bubbles: true }));
    });
    await flush();
    expect(state.update).toHaveBeenLastCalledWith({ timeZone: "Europe/Paris" });
    act(() => {
      zone.value = "browser";
      zone.dispatchEvent(new Event("change", { bubbles: true }));
    });
    await flush();
    expect(state.update).toHaveBeenLastCalledWith({ timeZone: null });
    click(byTestId(r.container, "settings.notify.invitationAccepted"));
    await flush();
    expect(state.update).toHaveBeenLastCalledWith({ notifications: { invitationAccepted: true } });
    const petition = [...r.container.querySelectorAll<HTMLButtonElement>("[role='radio']")].find(
      (b) => b.value === "petition",
    );
    click(petition);
    await flush();
    expect(state.update).toHaveBeenLastCalledWith({ defaultMode: "petition" });
  });

  test("a spinner while loading", () => {
    state.preferences = undefined;
    r.render(<SettingsPage />, "/settings");
    expect(r.container.querySelector("h1")?.textContent).toBe("Settings");
    expect(byTestId(r.container, "settings.timeZone")).toBeNull();
  });

  test("the zone list: every IANA zone the browser knows, its own among them; times in the chosen zone", () => {
    const zones = real.timeZoneNames();
    expect(zones.length).toBeGreaterThan(300);
    expect(zones).toContain(real.browserTimeZone());
    expect(zones).toContain("America/Chicago");
    const at = Date.UTC(2026, 0, 15, 18, 5);
    expect(real.formatDateTime(at, "America/Chicago")).toBe("Jan 15, 2026, 12:05 PM");
    expect(real.formatDateTime(at, "Asia/Kolkata")).toBe("Jan 15, 2026, 11:35 PM");
    real.setDisplayTimeZone("Asia/Kolkata");
    expect(real.formatDateTime(at)).toBe("Jan 15, 2026, 11:35 PM");
    real.setDisplayTimeZone(null);
    expect(real.currentTimeZone()).toBe(real.browserTimeZone());
  });
});
