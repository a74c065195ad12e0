/** Rendering helpers for the dashboard's component tests (jsdom, React 19 act, axe). */
import { Theme } from "@radix-ui/themes";
import axe from "axe-core";
import { act, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { expect } from "vitest";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
// what Radix's Select, Checkbox and ScrollArea use and jsdom lacks
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as never;
Element.prototype.scrollIntoView ??= () => {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};
window.matchMedia ??= ((query: string) => ({ matches: false, media: query, addEventListener: () => {}, removeEventListener: () => {}, addListener: () => {}, removeListener: () => {} })) as never;

export type Mounted = { container: HTMLDivElement; root: Root; unmount(): void };

export function mount(node: ReactNode): Mounted {
  const container = document.createElement("div");
  document.body.appendChild(container);
  const root = createRoot(container);
  act(() => root.render(<Theme>{node}</Theme>));
  return {
    container,
    root,
    unmount() {
      act(() => root.unmount());
      container.remove();
      document.body.innerHTML = "";
    },
  };
}

export function type(input: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const proto = input instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  act(() => {
    Object.getOwnPropertyDescriptor(proto, "value")!.set!.call(input, value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

export function click(el: Element | null | undefined) {
  if (!el) throw new Error("nothing to click");
  act(() => (el as HTMLElement).click());
}

/** A button by its visible text or accessible name. */
export function button(root: ParentNode, name: string): HTMLButtonElement | undefined {
  return [...root.querySelectorAll("button")].find((b) => b.getAttribute("aria-label") === name || b.textContent?.trim() === name);
}

/** No axe violations (colour contrast needs layout: it is checked in the browser, e2e a11y). */
export async function expectNoAxeViolations(el: Element) {
  const result = await axe.run(el, { rules: { "color-contrast": { enabled: false } } });
  expect(result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.html).join(" | ")}`)).toEqual([]);
}

/** Lets pending promises (mutations, their toasts) settle inside act. */
export async function flush() {
  await act(async () => {
    await new Promise((r) => setTimeout(r, 0));
  });
}
