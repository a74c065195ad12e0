/**
 * The CTA's element list (src/features/cta/components/CtaElementList.tsx), a listbox (issue 33 item
 * 11, WCAG 2.1.1): options back to front with each element's box for the tests, the selected one
 * the active descendant; ↑/↓, Home/End select, Enter edits, Escape deselects, a click selects.
 */
import { act, createElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { newElement, type CtaDesign, type CtaElement } from "@convex/lib/cta/design";
import { CtaElementList } from "@/features/cta/components/CtaElementList";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const el = (type: CtaElement["type"], id: string, p: Partial<CtaElement> = {}): CtaElement => ({
  ...newElement(type, id),
  ...p,
});
const design = (elements: CtaElement[]): CtaDesign => ({
  name: "Rally",
  description: "",
  width: 400,
  height: 300,
  backgroundColor: "#ffffff",
  gridSize: 10,
  snapToGrid: true,
  elements,
});

describe("CtaElementList", () => {
  let container: HTMLDivElement;
  let root: Root;
  const onSelect = vi.fn();
  const onEdit = vi.fn();
  const d = design([
    el("text", "title", { zIndex: 3, text: "Vote early" }),
    el("rectangle", "panel", { zIndex: 1, x: 0, y: 0, width: 400, height: 300, fill: "#0f172a" }),
    el("circle", "dot", { zIndex: 2 }),
  ]);
  const render = (selectedId: string | null) =>
    act(() => root.render(createElement(CtaElementList, { design: d, selectedId, onSelect, onEdit })));
  const list = () => container.querySelector<HTMLElement>('[role="listbox"]')!;
  const options = () => [...container.querySelectorAll<HTMLElement>('[role="option"]')];
  const key = (k: string) => {
    const e = new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true });
    act(() => void list().dispatchEvent(e));
    return e.defaultPrevented;
  };

  beforeEach(() => {
    onSelect.mockReset();
    onEdit.mockReset();
    container = document.createElement("div");
    document.body.appendChild(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
  });

  test("a focusable, named listbox of the elements back to front, each with its box; the backdrop says so", () => {
    render(null);
    expect(list().tabIndex).toBe(0);
    const label = document.getElementById(list().getAttribute("aria-labelledby")!)!;
    expect(label.textContent).toMatch(/^Elements/);
    expect(options().map((o) => o.textContent)).toEqual([
      "Rectangle 400 × 300, background",
      "Circle 80 × 80",
      "Text: Vote early",
    ]);
    expect(options()[0].dataset).toMatchObject({
      elementId: "panel",
      x: "0",
      y: "0",
      width: "400",
      height: "300",
      fill: "#0f172a",
      zIndex: "1",
    });
    expect(options().every((o) => o.getAttribute("aria-selected") === "false")).toBe(true);
    expect(list().hasAttribute("aria-activedescendant")).toBe(false);
  });

  test("arrow keys, Home and End select; the selection is the active descendant", () => {
    render(null);
    expect(key("ArrowDown")).toBe(true);
    expect(onSelect).toHaveBeenLastCalledWith("panel");
    render(null);
    key("ArrowUp");
    expect(onSelect).toHaveBeenLastCalledWith("title");
    render("dot");
    expect(list().getAttribute("aria-activedescendant")).toBe(options()[1].id);
    expect(options()[1].getAttribute("aria-selected")).toBe("true");
    key("ArrowDown");
    expect(onSelect).toHaveBeenLastCalledWith("title");
    key("ArrowUp");
    expect(onSelect).toHaveBeenLastCalledWith("panel");
    key("End");
    expect(onSelect).toHaveBeenLastCalledWith("title");
    key("Home");
    expect(onSelect).toHaveBeenLastCalledWith("panel");
    expect(key("a")).toBe(false);
  });

  test("Enter edits the selected element, Escape deselects; neither does anything without a selection", () => {
    render(null);
    expect(key("Enter")).toBe(false);
    expect(key("Escape")).toBe(false);
    expect(onEdit).not.toHaveBeenCalled();
    expect(onSelect).not.toHaveBeenCalled();
    render("title");
    expect(key("Enter")).toBe(true);
    expect(onEdit).toHaveBeenCalledTimes(1);
    expect(key("Escape")).toBe(true);
    expect(onSelect).toHaveBeenLastCalledWith(null);
  });

  test("a click selects", () => {
    render(null);
    act(() => options()[1].click());
    expect(onSelect).toHaveBeenLastCalledWith("dot");
  });

  test("with no elements it is a note, not an empty listbox (axe: a listbox needs options)", () => {
    act(() => root.render(createElement(CtaElementList, { design: design([]), selectedId: null, onSelect, onEdit })));
    expect(container.querySelector('[role="listbox"]')).toBeNull();
    expect(container.textContent).toContain("No elements yet.");
    render(null);
    expect(list().tabIndex).toBe(0);
  });
});
