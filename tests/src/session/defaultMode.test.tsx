/**
 * The default mode from Settings is applied: a device with no stored mode choice starts in the
 * user's default mode; a stored choice wins; a default the role no longer allows falls back.
 */
import { getFunctionName } from "convex/server";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { Mode } from "@convex/lib/permissions";
import { mountRoot, type MountedRoot } from "../../support/render";

const state = {
  modes: ["campaign", "petition", "relationship"] as Mode[],
  defaultMode: null as Mode | null,
  timeZone: null as string | null,
};

vi.mock("convex/react", () => ({
  useQuery: (ref: unknown, args: unknown) => {
    if (args === "skip") return undefined;
    const name = getFunctionName(ref as never);
    if (name === "viewer:me")
      return {
        userId: "u",
        email: "a@example.org",
        org: { id: "o", name: "Org" },
        permissions: [],
        modes: state.modes,
      };
    if (name === "preferences:mine")
      return {
        timeZone: state.timeZone,
        defaultMode: state.defaultMode,
        notifications: { surveyResponses: true, invitationAccepted: true },
      };
    return undefined;
  },
  useMutation: () => vi.fn(),
}));
vi.mock("@/session/AppAuth", () => ({ useAppAuth: () => ({ isAuthenticated: true, provider: "convex" }) }));

const { ViewerProvider, useViewer, MODE_STORAGE_KEY } = await import("@/session/ViewerProvider");
const { currentTimeZone, browserTimeZone } = await import("@/lib/dateTime");

function ShowMode() {
  const { mode, timeZone } = useViewer();
  return (
    <p data-testid="mode">
      {mode} {timeZone ?? "browser"}
    </p>
  );
}

describe("the default mode from Settings", () => {
  let r: MountedRoot;
  beforeEach(() => {
    r = mountRoot();
    localStorage.clear();
    state.modes = ["campaign", "petition", "relationship"];
    state.defaultMode = null;
    state.timeZone = null;
  });
  afterEach(() => r.unmount());
  const shown = () => r.container.querySelector("[data-testid='mode']")?.textContent;
  const render = () =>
    r.render(
      <ViewerProvider>
        <ShowMode />
      </ViewerProvider>,
    );

  test("no stored choice, no default: the first mode the role allows", () => {
    render();
    expect(shown()).toBe("campaign browser");
  });

  test("no stored choice on this device: the user's default mode", () => {
    state.defaultMode = "petition";
    render();
    expect(shown()).toBe("petition browser");
  });

  test("this device's stored choice wins over the default", () => {
    state.defaultMode = "petition";
    localStorage.setItem(MODE_STORAGE_KEY, "relationship");
    render();
    expect(shown()).toBe("relationship browser");
  });

  test("a default the role does not allow falls back to the first allowed mode", () => {
    state.defaultMode = "petition";
    state.modes = ["campaign"];
    render();
    expect(shown()).toBe("campaign browser");
  });

  test("the chosen time zone is what the app formats in", () => {
    state.timeZone = "Asia/Tokyo";
    render();
    expect(shown()).toBe("campaign Asia/Tokyo");
    expect(currentTimeZone()).toBe("Asia/Tokyo");
    state.timeZone = null;
    render();
    expect(currentTimeZone()).toBe(browserTimeZone());
  });
});
