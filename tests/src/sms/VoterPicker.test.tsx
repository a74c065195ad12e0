import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";

const useQuery = vi.fn();
vi.mock("convex/react", () => ({ useQuery: (...args: unknown[]) => useQuery(...args) }));

const { VoterPicker } = await import("@/features/sms/components/VoterPicker");

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function type(input: HTMLInputElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
  setter.call(input, value);
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

const results = Array.from({ length: 12 }, (_, i) => ({
  _id: `v${i}`,
  first_name: "Ada",
  last_name: `Number${i}`,
  email: null,
  phone: i === 0 ? null : `+1555000000${i}`,
}));

describe("campaign voter search (spec/2 §9: longer than 2 characters, 10 results)", () => {
  let container: HTMLDivElement;
  let root: Root;
  beforeEach(() => {
    vi.useFakeTimers();
    useQuery.mockReset();
    useQuery.mockImplementation((_fn: unknown, args: unknown) =>
      args === "skip" ? undefined : "id" in (args as object) ? null : results,
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

  test("two characters do not search, three do; at most 10 results; a pick is added once", () => {
    const onChange = vi.fn();
    act(() => root.render(<VoterPicker value={[]} onChange={onChange} />));
    const input = container.querySelector("input")!;
    act(() => type(input, "ad"));
    act(() => {
      vi.advanceTimersByTime(400);
    });
    expect(useQuery.mock.calls.every((c) => c[1] === "skip")).toBe(true);
    expect(container.textContent).toContain("Type at least 3 characters to search.");

    act(() => type(input, "ada"));
    act(() => {
      vi.advanceTimersByTime(300);
    });
    expect(useQuery).toHaveBeenLastCalledWith(expect.anything(), { term: "ada" });
    const options = container.querySelectorAll("[role=option]");
    expect(options).toHaveLength(10);
    expect(options[0].textContent).toContain("no phone");
    act(() => {
      (options[1] as HTMLElement).click();
    });
    expect(onChange).toHaveBeenCalledWith(["v1"]);
  });
});
