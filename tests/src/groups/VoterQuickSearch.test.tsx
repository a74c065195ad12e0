import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";

const useQuery = vi.fn();
vi.mock("convex/react", () => ({ useQuery: (...args: unknown[]) => useQuery(...args) }));

const { VoterQuickSearch } = await import("@/features/groups/components/VoterQuickSearch");

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function type(input: HTMLInputElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
  setter.call(input, value);
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

describe("voter quick search (300 ms debounce, ≥ 2 characters, 10 results, closes 200 ms after blur)", () => {
  let container: HTMLDivElement;
  let root: Root;
  beforeEach(() => {
    vi.useFakeTimers();
    useQuery.mockReset();
    useQuery.mockImplementation((_fn: unknown, args: unknown) =>
      args === "skip" ? undefined : [{ _id: "v1", first_name: "Ada", last_name: "Lovelace", email: "ada@example.org" }],
    );
    container = document.createElement("div");
    document.body.appendChild(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
    vi.useRealTimers();
  });

  test("searches only after the debounce and with two characters; picks; closes after blur", () => {
    const onPick = vi.fn();
    act(() => root.render(<VoterQuickSearch onPick={onPick} />));
    const input = container.querySelector("input")!;
    act(() => type(input, "a"));
    act(() => {
      vi.advanceTimersByTime(400);
    });
    expect(useQuery.mock.calls.every((c) => c[1] === "skip")).toBe(true);
    expect(container.querySelector("[role=listbox]")).toBeNull();

    act(() => type(input, "ad"));
    act(() => {
      vi.advanceTimersByTime(299);
    });
    expect(useQuery.mock.calls.some((c) => c[1] !== "skip")).toBe(false);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(useQuery).toHaveBeenLastCalledWith(expect.anything(), { term: "ad" });
    const option = container.querySelector("[role=option]") as HTMLElement;
    expect(option.textContent).toContain("Ada Lovelace");

    act(() => {
      input.dispatchEvent(new FocusEvent("focusout", { bubbles: true }));
    });
    act(() => {
      vi.advanceTimersByTime(199);
    });
    expect(container.querySelector("[role=listbox]")).not.toBeNull();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(container.querySelector("[role=listbox]")).toBeNull();

    act(() => {
      input.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
    });
    act(() => {
      (container.querySelector("[role=option]") as HTMLElement).click();
    });
    expect(onPick).toHaveBeenCalledWith("v1", "Ada Lovelace");
  });
});
