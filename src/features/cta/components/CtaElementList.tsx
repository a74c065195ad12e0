/**
 * The CTA's elements as a listbox (WCAG 2.1.1: everything on the canvas can be reached without a
 * mouse): back to front, as they are drawn. With the list focused, ↑/↓ (Home/End) select the
 * previous/next (first/last) element, Enter edits the selected one (focus moves to its
 * properties), Escape clears the selection; a click selects too. The selected element is the
 * list's active descendant, so a screen reader reads it as it changes. A backdrop (a shape or
 * picture covering the whole canvas at the back) is chosen here: a click on it on the canvas is a
 * click on the blank canvas.
 *
 * Each option carries the element's box as data attributes (data-x, data-y, data-width,
 * data-height, data-fill, data-z-index): the end-to-end tests read the design from them.
 */
import { Box, Text } from "@radix-ui/themes";
import { useEffect, useId, useRef, type KeyboardEvent } from "react";
import { sortByZ, type CtaDesign, type CtaElement } from "@convex/lib/cta/design";
import { elementLabel, isBackdrop } from "../utils/fabricSync";

type Props = {
  design: CtaDesign;
  selectedId: string | null;
  onSelect(id: string | null): void;
  /** Enter on the selected element: edit it (the page moves focus to its properties) */
  onEdit(): void;
};

/** What the list says of an element besides its label: its size, and whether it is the backdrop. */
function detail(el: CtaElement, design: CtaDesign): string {
  if (el.type === "text") return "";
  return `${el.width} × ${el.height}${isBackdrop(el, design) ? ", background" : ""}`;
}

const swatch = (el: CtaElement) =>
  el.type === "text" ? (el.color ?? "#111827") : el.fill === "transparent" ? "transparent" : el.fill;

export function CtaElementList({ design, selectedId, onSelect, onEdit }: Props) {
  const base = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const elements = sortByZ(design.elements);
  const optionId = (id: string) => `${base}-${id}`;
  const at = elements.findIndex((e) => e.id === selectedId);

  // keep the selected option in view (selected from the canvas, or by the keys)
  useEffect(() => {
    if (!selectedId) return;
    const list = listRef.current;
    const option = [...(list?.querySelectorAll<HTMLElement>('[role="option"]') ?? [])].find(
      (o) => o.dataset.elementId === selectedId,
    );
    if (list && option && typeof option.scrollIntoView === "function") option.scrollIntoView({ block: "nearest" });
  }, [selectedId]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (elements.length === 0) return;
    let next: number | null = null;
    switch (e.key) {
      case "ArrowDown":
        next = at < 0 ? 0 : Math.min(elements.length - 1, at + 1);
        break;
      case "ArrowUp":
        next = at < 0 ? elements.length - 1 : Math.max(0, at - 1);
        break;
      case "Home":
        next = 0;
        break;
      case "End":
        next = elements.length - 1;
        break;
      case "Enter":
        if (at < 0) return;
        e.preventDefault();
        onEdit();
        return;
      case "Escape":
        if (at < 0) return;
        e.preventDefault();
        onSelect(null);
        return;
      default:
        return;
    }
    e.preventDefault();
    onSelect(elements[next].id);
  };

  return (
    <Box data-testid="cta.elementList">
      <Text as="div" size="2" weight="medium" id={`${base}-label`} mb="1">
        Elements{" "}
        <Text color="gray" weight="regular" size="1">
          (back to front · ↑↓ to select, Enter to edit, Esc to deselect)
        </Text>
      </Text>
      {/* an empty listbox is an ARIA error (a listbox needs options): until there is an element it is a note */}
      <div
        ref={listRef}
        role={elements.length > 0 ? "listbox" : undefined}
        tabIndex={elements.length > 0 ? 0 : undefined}
        aria-labelledby={`${base}-label`}
        aria-activedescendant={at >= 0 ? optionId(elements[at].id) : undefined}
        onKeyDown={onKeyDown}
        data-testid="cta.elements"
        style={{
          maxHeight: 220,
          overflowY: "auto",
          border: "1px solid var(--gray-a6)",
          borderRadius: "var(--radius-2)",
          background: "var(--color-panel-solid)",
          padding: 2,
        }}
      >
        {elements.length === 0 && (
          <Text as="div" size="1" color="gray" style={{ padding: "6px 8px" }}>
            No elements yet.
          </Text>
        )}
        {elements.map((el) => {
          const selected = el.id === selectedId;
          const more = detail(el, design);
          return (
            <div
              key={el.id}
              id={optionId(el.id)}
              role="option"
              aria-selected={selected}
              data-testid="cta.element"
              data-element-id={el.id}
              data-type={el.type}
              data-x={el.x}
              data-y={el.y}
              data-width={el.width}
              data-height={el.height}
              data-fill={el.fill}
              data-z-index={el.zIndex}
              onClick={() => onSelect(el.id)}
              style={{
                display: "flex",
                alignItems: "center",
                gap: 8,
                padding: "4px 8px",
                borderRadius: "var(--radius-1)",
                cursor: "pointer",
                fontSize: "var(--font-size-2)",
                lineHeight: "var(--line-height-2)",
                background: selected ? "var(--accent-a5)" : undefined,
                fontWeight: selected ? 500 : undefined,
              }}
            >
              <span
                aria-hidden
                style={{
                  flex: "0 0 auto",
                  width: 12,
                  height: 12,
                  borderRadius: 3,
                  border: "1px solid var(--gray-a7)",
                  background: swatch(el),
                }}
              />
              <span style={{ minWidth: 0, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>
                {elementLabel(el)}
                {more && <span style={{ color: "var(--gray-11)" }}>{` ${more}`}</span>}
              </span>
            </div>
          );
        })}
      </div>
    </Box>
  );
}
