/** Rendering helpers for the component tests (jsdom, React 19 act, axe): one set for every screen. */
import { Theme } from "@radix-ui/themes";
import axe from "axe-core";
import { act, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { MemoryRouter } from "react-router-dom";
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
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  addEventListener: () => {},
  removeEventListener: () => {},
  addListener: () => {},
  removeListener: () => {},
})) as never;

export type Mounted = { container: HTMLDivElement; root: Root; unmount(): void };

/** `node` rendered in the theme. */
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

export type MountedRoot = {
  container: HTMLDivElement;
  render: (ui: ReactNode, path?: string) => void;
  rerender: (ui: ReactNode) => void;
  unmount: () => void;
};

/** A root to render into; `render` mounts afresh in the theme and a router at `path`, `rerender` updates what is mounted. */
export function mountRoot(): MountedRoot {
  const container = document.createElement("div");
  document.body.appendChild(container);
  const root: Root = createRoot(container);
  let n = 0;
  let at = "/";
  const draw = (ui: ReactNode) =>
    act(() =>
      root.render(
        <Theme key={n}>
          <MemoryRouter initialEntries={[at]}>{ui}</MemoryRouter>
        </Theme>,
      ),
    );
  return {
    container,
    render: (ui, path = "/") => {
      n++;
      at = path;
      draw(ui);
    },
    rerender: draw,
    unmount: () => {
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
  return [...root.querySelectorAll("button")].find(
    (b) => b.getAttribute("aria-label") === name || b.textContent?.trim() === name,
  );
}

export const byTestId = (root: ParentNode, id: string) => root.querySelector<HTMLElement>(`[data-testid='${id}']`);
export const allByTestId = (root: ParentNode, id: string) => [
  ...root.querySelectorAll<HTMLElement>(`[data-testid='${id}']`),
];

/**
 * axe's violations in `el`. Colour contrast needs layout: it is checked in the browser (e2e
 * a11y). Frames are left out: a sandboxed email preview is not the app's markup, and jsdom
 * cannot message it.
 */
export async function axeViolations(el: Element): Promise<string[]> {
  const result = await axe.run(el, { iframes: false, rules: { "color-contrast": { enabled: false } } });
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.html).join(" | ")}`);
}

export async function expectNoAxeViolations(el: Element) {
  expect(await axeViolations(el)).toEqual([]);
}

/** Lets pending promises (mutations, their toasts) settle inside act. */
export async function flush() {
  await act(async () => {
    await new Promise((r) => setTimeout(r, 0));
  });
}
