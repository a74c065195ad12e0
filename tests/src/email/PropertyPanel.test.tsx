/**
 * The email builder's property panel (spec/2 §2.3, §5, §9): one labelled control per property of
 * every block type, bounds applied on commit, links validated, image upload, delete/duplicate.
 */
import { Theme } from "@radix-ui/themes";
import axe from "axe-core";
import { act, useState, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import {
  BLOCK_LABELS,
  BLOCK_PROPS,
  BLOCK_TYPES,
  newBlock,
  type BlockType,
  type BlockValue,
} from "@convex/lib/email/blocks";
import { NO_SELECTION_HINT, PropertyPanel } from "@/features/email/components/PropertyPanel";
import { PROP_LABELS, propLabel, URL_ERROR } from "@/features/email/components/PropertyField";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
// what Radix's Select and Switch use and jsdom lacks
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as never;
Element.prototype.scrollIntoView ??= () => {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};

type Block = { id: string; type: BlockType; content: Record<string, unknown> };

function type(input: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const proto = input instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  act(() => {
    input.focus();
    Object.getOwnPropertyDescriptor(proto, "value")!.set!.call(input, value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
}
const blur = (el: HTMLElement) => act(() => el.blur());

describe("PropertyPanel", () => {
  let container: HTMLDivElement;
  let root: Root;
  const onChange = vi.fn<(patch: Record<string, BlockValue>) => void>();
  const onDelete = vi.fn();
  const onDuplicate = vi.fn();
  const onUploadImage = vi.fn<(file: File, field: string) => Promise<string | null>>();
  beforeEach(() => {
    [onChange, onDelete, onDuplicate, onUploadImage].forEach((f) => f.mockReset());
    container = document.createElement("div");
    document.body.appendChild(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
    document.body.innerHTML = "";
  });

  /** The panel as the builder uses it: the patches are applied to the block it shows. */
  function Harness({
    initial,
    conflictNote,
    disabled,
  }: {
    initial: Block | null;
    conflictNote?: ReactNode;
    disabled?: boolean;
  }) {
    const [block, setBlock] = useState(initial);
    return (
      <Theme>
        <PropertyPanel
          block={block}
          onChange={(patch) => {
            onChange(patch);
            setBlock((b) => b && { ...b, content: { ...b.content, ...patch } });
          }}
          onDelete={onDelete}
          onDuplicate={onDuplicate}
          onUploadImage={onUploadImage}
          disabled={disabled}
          conflictNote={conflictNote}
        />
      </Theme>
    );
  }
  let mounts = 0;
  /** A fresh harness (a new key: its state starts from `initial`). */
  const mount = (initial: Block | null, extra: { conflictNote?: ReactNode; disabled?: boolean } = {}) =>
    act(() => root.render(<Harness key={++mounts} initial={initial} {...extra} />));
  const block = (t: BlockType, content: Record<string, unknown> = {}): Block => {
    const b = newBlock(t, `b-${t}`);
    return { ...b, content: { ...b.content, ...content } };
  };
  const q = <E extends HTMLElement = HTMLInputElement>(testId: string) =>
    document.querySelector<E>(`[data-testid="${testId}"]`);
  const prop = <E extends HTMLElement = HTMLInputElement>(key: string) => q<E>(`email.prop.${key}`)!;

  test("with nothing selected, a hint", () => {
    mount(null);
    expect(q("email.props")!.textContent).toBe(NO_SELECTION_HINT);
  });

  test.each(BLOCK_TYPES)("%s: a labelled control of the right kind for every property", (t) => {
    mount(block(t));
    const panel = q("email.props")!;
    expect(panel.querySelector("h2")!.textContent).toBe(BLOCK_LABELS[t]);
    for (const [key, spec] of Object.entries(BLOCK_PROPS[t])) {
      const el = prop<HTMLElement>(key);
      expect(el, key).not.toBeNull();
      expect(el.getAttribute("aria-label"), key).toBe(propLabel(key));
      expect(PROP_LABELS[key], key).toBeDefined(); // written out ("Font size"), not derived from the key
      expect(propLabel(key), key).not.toMatch(/[a-z][A-Z]/);
      expect(panel.querySelector(`label[for="${el.id}"]`)?.textContent, key).toBe(propLabel(key));
      switch (spec.kind) {
        case "number":
          expect([el.getAttribute("type"), el.getAttribute("min"), el.getAttribute("max")], key).toEqual([
            "number",
            String(spec.min),
            String(spec.max),
          ]);
          break;
        case "text":
          expect(el.tagName, key).toBe(spec.multiline ? "TEXTAREA" : "INPUT");
          expect(el.getAttribute("maxlength"), key).toBe(String(spec.max));
          break;
        case "url":
          expect(el.getAttribute("type"), key).toBe("url");
          break;
        case "color":
          expect(el.getAttribute("maxlength"), key).toBe("7");
          expect(q(`email.prop.${key}.swatch`)!.type, key).toBe("color");
          break;
        case "choice":
          expect(el.getAttribute("role"), key).toBe("combobox");
          break;
        case "boolean":
          expect(el.getAttribute("role"), key).toBe("switch");
          break;
      }
    }
    const hasText = Object.values(BLOCK_PROPS[t]).some((s) => s.kind === "text");
    expect(panel.textContent.includes("{{voter.first_name}}")).toBe(hasText);
  });

  test.each(BLOCK_TYPES)("%s: axe finds no violations", async (t) => {
    mount(block(t));
    // jsdom does not lay out: colour contrast is checked in the browser (e2e a11y)
    const result = await axe.run(q("email.props")!, { rules: { "color-contrast": { enabled: false } } });
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(" | ")}`)).toEqual([]);
    // the rules that matter here did look at the controls
    const passed = new Set(result.passes.map((p) => p.id));
    expect(["label", "button-name", "aria-toggle-field-name"].filter((r) => passed.has(r))).not.toEqual([]);
  });

  test("units: px for sizes, % for the sidebar width, none for opacity, columns and year", () => {
    mount(block("hero"));
    expect(prop("height").parentElement!.textContent).toBe("px");
    expect(prop("overlayOpacity").parentElement!.textContent).toBe("");
    expect(prop("overlayOpacity").step).toBe("0.1");
    mount(block("sidebar"));
    expect(prop("sidebarWidth").parentElement!.textContent).toBe("%");
    mount(block("footer"));
    expect(prop("copyrightYear").parentElement!.textContent).toBe("");
  });

  test("numbers within bounds are committed as typed; outside them they are clamped on blur", () => {
    mount(block("columns", { columns: 2 }));
    const columns = prop("columns");
    type(columns, "7");
    expect(onChange).not.toHaveBeenCalled();
    blur(columns);
    expect(onChange).toHaveBeenLastCalledWith({ columns: 4 });
    expect(columns.value).toBe("4");
    type(columns, "3");
    expect(onChange).toHaveBeenLastCalledWith({ columns: 3 });
    type(columns, "0");
    blur(columns);
    expect(onChange).toHaveBeenLastCalledWith({ columns: 1 });

    mount(block("hero", { overlayOpacity: 0.2 }));
    onChange.mockClear();
    const opacity = prop("overlayOpacity");
    type(opacity, "1.5");
    expect(onChange).not.toHaveBeenCalled();
    blur(opacity);
    expect(onChange).toHaveBeenLastCalledWith({ overlayOpacity: 1 });
    expect(opacity.value).toBe("1");
    type(opacity, "0.37");
    expect(onChange).toHaveBeenLastCalledWith({ overlayOpacity: 0.4 });
    blur(opacity);
    expect(opacity.value).toBe("0.4");
    // an empty field goes back to the value it had
    onChange.mockClear();
    type(opacity, "");
    blur(opacity);
    expect(opacity.value).toBe("0.4");
    expect(onChange).not.toHaveBeenCalled();
  });

  test("Enter commits a clamped number without leaving the field", () => {
    mount(block("text"));
    const size = prop("fontSize");
    type(size, "99");
    act(() => {
      size.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    });
    expect(onChange).toHaveBeenLastCalledWith({ fontSize: 48 });
    expect(document.activeElement).toBe(size);
  });

  test("the distribution is offered only for two columns", () => {
    mount(block("columns", { columns: 2 }));
    expect(q("email.prop.distribution")).not.toBeNull();
    for (const [n, shown] of [
      ["3", false],
      ["4", false],
      ["1", false],
      ["2", true],
    ] as const) {
      type(prop("columns"), n);
      expect(q("email.prop.distribution") !== null, n).toBe(shown);
    }
  });

  test("a choice is picked from the list and committed with its own type", () => {
    mount(block("text"));
    const trigger = prop<HTMLButtonElement>("lineHeight");
    expect(trigger.textContent).toBe("1.5");
    act(() => {
      trigger.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    });
    const options = [...document.querySelectorAll<HTMLElement>("[role=option]")];
    expect(options.map((o) => o.textContent)).toEqual(["1", "1.25", "1.5", "1.75", "2", "2.5"]);
    act(() => options[3].click());
    expect(onChange).toHaveBeenLastCalledWith({ lineHeight: 1.75 });

    mount(block("heading"));
    act(() => {
      prop("level").dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    });
    expect([...document.querySelectorAll("[role=option]")].map((o) => o.textContent)).toEqual([
      "H1",
      "H2",
      "H3",
      "H4",
      "H5",
      "H6",
    ]);
  });

  test("distribution options read as ratios", () => {
    mount(block("columns"));
    act(() => {
      prop("distribution").dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    });
    expect([...document.querySelectorAll("[role=option]")].map((o) => o.textContent)).toEqual([
      "Equal",
      "1 : 2",
      "2 : 1",
      "1 : 3",
      "3 : 1",
    ]);
  });

  test("text is committed as it is typed, one property at a time", () => {
    mount(block("text"));
    const text = prop<HTMLTextAreaElement>("text");
    type(text, "Hello {{voter.first_name}}");
    expect(onChange).toHaveBeenLastCalledWith({ text: "Hello {{voter.first_name}}" });
  });

  test("switches and colours commit their property", () => {
    mount(block("hero"));
    act(() => prop("overlay").click());
    expect(onChange).toHaveBeenLastCalledWith({ overlay: false });
    expect(prop("overlay").getAttribute("aria-checked")).toBe("false");
    type(prop("backgroundColor"), "#abc");
    expect(onChange).toHaveBeenLastCalledWith({ backgroundColor: "#abc" });
  });

  test("a link that is not https://, http:// or mailto: shows an error and is not committed", () => {
    mount(block("button"));
    const url = prop("url");
    expect(url.value).toBe("");
    expect(q("email.prop.url.error")).toBeNull();
    type(url, "www.example.org");
    expect(q("email.prop.url.error")!.textContent).toBe(URL_ERROR);
    expect(url.getAttribute("aria-invalid")).toBe("true");
    expect(url.getAttribute("aria-describedby")).toBe(q("email.prop.url.error")!.id);
    blur(url);
    expect(onChange).not.toHaveBeenCalled();
    expect(q("email.prop.url.error")).not.toBeNull();
    // partway through typing a scheme is not an error yet
    type(url, "mail");
    expect(q("email.prop.url.error")).toBeNull();
    type(url, "javascript:alert(1)");
    expect(q("email.prop.url.error")).not.toBeNull();
    expect(onChange).not.toHaveBeenCalled();
    type(url, "https://example.org/donate");
    expect(q("email.prop.url.error")).toBeNull();
    expect(onChange).toHaveBeenLastCalledWith({ url: "https://example.org/donate" });
    type(url, "mailto:team@example.org");
    expect(onChange).toHaveBeenLastCalledWith({ url: "mailto:team@example.org" });
    type(url, "");
    expect(onChange).toHaveBeenLastCalledWith({ url: "" });
  });

  test("Upload image sends the file for that field, shows a spinner and commits the address", async () => {
    let resolve!: (url: string | null) => void;
    onUploadImage.mockReturnValue(new Promise((r) => (resolve = r)));
    mount(block("image"));
    const button = q<HTMLButtonElement>("email.props.upload.src")!;
    const input = q("email.props.upload.src.input")!;
    expect(input.type).toBe("file");
    expect(input.accept).toBe("image/*");
    const picked = vi.fn();
    input.addEventListener("click", picked);
    act(() => button.click());
    expect(picked).toHaveBeenCalled();

    const file = new File(["x"], "photo.png", { type: "image/png" });
    Object.defineProperty(input, "files", { value: [file], configurable: true });
    act(() => {
      input.dispatchEvent(new Event("change", { bubbles: true }));
    });
    expect(onUploadImage).toHaveBeenCalledWith(file, "src");
    expect(button.disabled).toBe(true);
    expect(button.querySelector(".rt-Spinner")).not.toBeNull();

    await act(async () => resolve("https://files.example.org/photo.png"));
    expect(onChange).toHaveBeenLastCalledWith({ src: "https://files.example.org/photo.png" });
    expect(prop("src").value).toBe("https://files.example.org/photo.png");
    expect(button.disabled).toBe(false);
    expect(button.querySelector(".rt-Spinner")).toBeNull();
  });

  test("a failed upload (null) changes nothing", async () => {
    onUploadImage.mockResolvedValue(null);
    mount(block("hero"));
    const input = q("email.props.upload.backgroundImage.input")!;
    Object.defineProperty(input, "files", {
      value: [new File(["x"], "a.gif", { type: "image/gif" })],
      configurable: true,
    });
    await act(async () => input.dispatchEvent(new Event("change", { bubbles: true })));
    expect(onUploadImage).toHaveBeenCalledWith(expect.any(File), "backgroundImage");
    expect(onChange).not.toHaveBeenCalled();
    expect(q<HTMLButtonElement>("email.props.upload.backgroundImage")!.disabled).toBe(false);
  });

  test("upload is offered for image and hero blocks only", () => {
    for (const t of BLOCK_TYPES) {
      mount(block(t));
      const buttons = [...document.querySelectorAll("[data-testid^='email.props.upload.']")].filter(
        (b) => b.tagName === "BUTTON",
      );
      expect(
        buttons.map((b) => b.getAttribute("data-testid")),
        t,
      ).toEqual(
        t === "image" ? ["email.props.upload.src"] : t === "hero" ? ["email.props.upload.backgroundImage"] : [],
      );
    }
  });

  test("Delete and Duplicate call back; the conflict note shows under the heading", () => {
    mount(block("spacer"), { conflictNote: <p data-testid="note">A teammate changed this block.</p> });
    act(() => q<HTMLButtonElement>("email.props.duplicate")!.click());
    expect(onDuplicate).toHaveBeenCalledTimes(1);
    act(() => q<HTMLButtonElement>("email.props.delete")!.click());
    expect(onDelete).toHaveBeenCalledTimes(1);
    expect(q("note")!.textContent).toBe("A teammate changed this block.");
  });

  test("the footer's properties are grouped: Company, Links, Style", () => {
    mount(block("footer"));
    const panel = q("email.props")!;
    expect([...panel.querySelectorAll("h3")].map((h) => h.textContent)).toEqual(["Company", "Links", "Style"]);
    const labels = [...panel.querySelectorAll("label")].map((l) => l.textContent);
    expect(labels.indexOf("Copyright year")).toBeLessThan(labels.indexOf("Show unsubscribe link"));
    expect(labels.indexOf("Contact URL")).toBeLessThan(labels.indexOf("Link color"));
  });

  test("disabled: every control and button is disabled", () => {
    mount(block("image"), { disabled: true });
    const controls = [
      ...q("email.props")!.querySelectorAll<HTMLInputElement | HTMLButtonElement>(
        "input:not([type=file]), button, textarea",
      ),
    ];
    expect(controls.length).toBeGreaterThan(5);
    expect(controls.filter((c) => !c.disabled).map((c) => c.outerHTML)).toEqual([]);
  });

  test("the values shown follow the block given: another block, or this one changed elsewhere", () => {
    const panel = (b: Block) => (
      <Theme>
        <PropertyPanel
          block={b}
          onChange={onChange}
          onDelete={onDelete}
          onDuplicate={onDuplicate}
          onUploadImage={onUploadImage}
        />
      </Theme>
    );
    act(() => root.render(panel(block("spacer", { height: 40 }))));
    expect(prop("height").value).toBe("40");
    act(() => root.render(panel({ ...block("spacer", { height: 80 }), id: "other" })));
    expect(prop("height").value).toBe("80");
    act(() => root.render(panel({ ...block("spacer", { height: 120 }), id: "other" })));
    expect(prop("height").value).toBe("120");
    // while the user is typing, their text stays
    type(prop("height"), "13");
    act(() => root.render(panel({ ...block("spacer", { height: 60 }), id: "other" })));
    expect(prop("height").value).toBe("13");
    act(() => root.render(panel(null as never)));
    expect(q("email.props")!.textContent).toBe(NO_SELECTION_HINT);
    expect(onChange).toHaveBeenCalledWith({ height: 13 });
  });
});
