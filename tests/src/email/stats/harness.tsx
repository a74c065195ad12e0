/** Shared set-up of the email statistics component tests: a React root in jsdom, and axe. */
import { Theme } from "@radix-ui/themes";
import axe from "axe-core";
import { act, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { MemoryRouter } from "react-router-dom";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
// what Radix measures and jsdom lacks
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as never;
window.matchMedia ??= ((query: string) => ({ matches: false, media: query, addEventListener: () => {}, removeEventListener: () => {} })) as never;

export type Mounted = { container: HTMLDivElement; render: (ui: ReactNode, path?: string) => void; rerender: (ui: ReactNode) => void; unmount: () => void };

/** A root to render into; `render` mounts afresh in the theme and a router at `path`, `rerender` updates what is mounted. */
export function mountRoot(): Mounted {
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

/** axe's violations in `el` (colour contrast needs layout: checked in the browser). */
export async function axeViolations(el: Element): Promise<string[]> {
  // iframes: false — the sandboxed email preview is not the app's markup (and jsdom cannot message it)
  const result = await axe.run(el, { iframes: false, rules: { "color-contrast": { enabled: false } } });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((x) => x.html).join(" | ")}`);
}

export const byTestId = (root: ParentNode, id: string) => root.querySelector<HTMLElement>(`[data-testid='${id}']`);
export const allByTestId = (root: ParentNode, id: string) => [...root.querySelectorAll<HTMLElement>(`[data-testid='${id}']`)];
export const buttonNamed = (root: ParentNode, name: string) =>
  [...root.querySelectorAll("button")].find((b) => (b.getAttribute("aria-label") ?? b.textContent ?? "").trim() === name);
