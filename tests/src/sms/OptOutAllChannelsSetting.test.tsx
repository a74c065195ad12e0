/** SMS settings' "Apply an opt-out to every channel" (issue 39): off by default, saved as switched; axe. */
import { getFunctionName } from "convex/server";
import { afterEach, describe, expect, test, vi } from "vitest";
import { byTestId, click, expectNoAxeViolations, flush, mount, type Mounted } from "../../support/render";

const state = {
  settings: { optOutAllChannels: false } as { optOutAllChannels: boolean } | undefined,
  save: vi.fn(async (_args: unknown) => null),
};
vi.mock("convex/react", () => ({
  useQuery: (ref: unknown) => (getFunctionName(ref as never) === "consent:settings" ? state.settings : undefined),
  useMutation: () => state.save,
}));

const { OptOutAllChannelsSetting } = await import("@/features/sms/components/OptOutAllChannelsSetting");

describe("OptOutAllChannelsSetting", () => {
  let m: Mounted;
  afterEach(() => {
    m.unmount();
    state.settings = { optOutAllChannels: false };
    state.save.mockClear();
  });

  test("off by default; switching it on saves at once; axe", async () => {
    m = mount(<OptOutAllChannelsSetting />);
    const sw = byTestId(m.container, "sms.optOutAllChannels")!.querySelector("[role='switch']")!;
    expect(sw.getAttribute("aria-checked")).toBe("false");
    expect(byTestId(m.container, "sms.optOutAllChannels")!.textContent).toContain("Apply an opt-out to every channel");
    await expectNoAxeViolations(m.container);
    click(sw);
    await flush();
    expect(state.save).toHaveBeenCalledWith({ optOutAllChannels: true });
  });

  test("while the setting loads it cannot be switched", () => {
    state.settings = undefined;
    m = mount(<OptOutAllChannelsSetting />);
    const sw = byTestId(m.container, "sms.optOutAllChannels")!.querySelector("[role='switch']")!;
    expect(sw.hasAttribute("disabled")).toBe(true);
  });
});
