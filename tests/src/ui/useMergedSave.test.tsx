/**
 * The one way forms over shared records save (no lost updates): refused while a teammate's
 * conflict is unsettled; a refused save brings the teammate's values back as conflicts on the
 * form; other failures are shown under the caller's title or handled by the caller.
 */
import { act } from "react";
import { ConvexError } from "convex/values";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { MergeState } from "@/lib/records/mergeForm";
import { mount, type Mounted } from "../../support/render";

const toast = vi.hoisted(() => ({
  success: vi.fn(),
  error: vi.fn(),
  info: vi.fn(),
  warning: vi.fn(),
  failure: vi.fn(),
}));
vi.mock("@/ui/toast", () => ({ toast, errorMessage: (e: unknown) => String(e) }));
const { useMergedSave } = await import("@/ui/useMergedSave");

type Hook = ReturnType<typeof useMergedSave>;
const state = (conflicts: Record<string, string> = {}): MergeState => ({
  values: { name: "Mine" },
  base: { name: "Old" },
  conflicts,
});
const refused = new ConvexError({
  code: "CONFLICT",
  message: 'The group "G" was changed by Grace while you were editing: name',
  title: "Edit conflict",
  conflicts: [{ field: "name", theirs: "Theirs", by: "Grace" }],
});

describe("useMergedSave", () => {
  let view: Mounted | null = null;
  let hook: Hook;
  const addConflicts = vi.fn();
  const render = (
    form: MergeState | null,
    toForm?: Parameters<typeof useMergedSave>[1],
    labelOf?: Parameters<typeof useMergedSave>[2],
  ) => {
    function Probe() {
      hook = useMergedSave({ form, addConflicts }, toForm, labelOf);
      return <span data-busy={String(hook.busy)} />;
    }
    view = mount(<Probe />);
  };
  const busy = () => view!.container.querySelector("span")!.getAttribute("data-busy");

  beforeEach(() => vi.clearAllMocks());
  afterEach(() => {
    view?.unmount();
    view = null;
  });

  test("saves, busy while the save runs", async () => {
    render(state());
    let finish!: () => void;
    const run = vi.fn(() => new Promise<void>((r) => (finish = r)));
    let result: Promise<boolean>;
    act(() => {
      result = hook.save(run, "Error Updating Group");
    });
    expect(run).toHaveBeenCalledTimes(1);
    expect(busy()).toBe("true");
    await act(async () => finish());
    expect(await result!).toBe(true);
    expect(busy()).toBe("false");
    expect(toast.failure).not.toHaveBeenCalled();
  });

  test("refused while a conflict is unsettled: nothing is sent", async () => {
    render(state({ name: "Theirs" }));
    const run = vi.fn(async () => {});
    let ok!: boolean;
    await act(async () => {
      ok = await hook.save(run, "Error Updating Group");
    });
    expect(ok).toBe(false);
    expect(run).not.toHaveBeenCalled();
    expect(toast.error).toHaveBeenCalledWith("Edit conflict", {
      description: "A teammate changed fields you edited. Choose Keep mine or Take theirs for each of them, then save.",
    });
  });

  test("a teammate's same-field change comes back as conflicts on the form, through the form's own mapping", async () => {
    render(state(), (c) => [`form.${c.field}`, String(c.theirs).toUpperCase()]);
    let ok!: boolean;
    await act(async () => {
      ok = await hook.save(() => Promise.reject(refused), "Error Updating Group");
    });
    expect(ok).toBe(false);
    expect(addConflicts).toHaveBeenCalledWith({ "form.name": "THEIRS" });
    // no labels given: the toast names no stored key
    expect(toast.failure).toHaveBeenCalledWith("Edit conflict", refused, {
      description: "Grace changed fields you were editing. Keep yours or take theirs under each field, then save.",
    });
    expect(busy()).toBe("false");
  });

  test("the conflict toast names the fields by the form's labels, not the stored keys", async () => {
    const precinct = new ConvexError({
      code: "CONFLICT",
      message: "Maria Lopez was changed by Grace while you were editing: precinct",
      title: "Edit conflict",
      conflicts: [
        { field: "precinct", theirs: "12", by: "Grace" },
        { field: "custom_fields.k1", theirs: "x", by: null },
      ],
    });
    const labels: Record<string, string> = { precinct: "Precinct", "custom.k1": "Shirt size" };
    render(
      state(),
      (c) => [c.field.replace("custom_fields.", "custom."), String(c.theirs)],
      (k) => labels[k],
    );
    await act(async () => {
      await hook.save(() => Promise.reject(precinct), "Error Updating Voter");
    });
    expect(toast.failure).toHaveBeenCalledWith("Edit conflict", precinct, {
      description:
        "Grace and a teammate changed Precinct, Shirt size while you were editing. Keep yours or take theirs under each field, then save.",
    });
  });

  test("other failures: under the caller's title, or handled by the caller", async () => {
    render(state());
    const boom = new Error("network down");
    await act(async () => {
      await hook.save(() => Promise.reject(boom), "Error Updating Group");
    });
    expect(toast.failure).toHaveBeenCalledWith("Error Updating Group", boom);
    expect(addConflicts).not.toHaveBeenCalled();
    const own = vi.fn();
    await act(async () => {
      await hook.save(() => Promise.reject(boom), own);
    });
    expect(own).toHaveBeenCalledWith(boom);
    expect(toast.failure).toHaveBeenCalledTimes(1);
  });

  test("nothing to save before the record has loaded", async () => {
    render(null);
    const run = vi.fn(async () => {});
    let ok!: boolean;
    await act(async () => {
      ok = await hook.save(run, "x");
    });
    expect(ok).toBe(false);
    expect(run).not.toHaveBeenCalled();
  });
});
