/** The colour input of the designers (spec/2 §5: # and 3 or 6 hex digits, at most 7 characters, revert on blur). */
import { Theme } from "@radix-ui/themes";
import { act, useState } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { ColorInput, swatchValue } from "@/ui/ColorInput";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function type(input: HTMLInputElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
  act(() => {
    setter.call(input, value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

/** The input as a parent holding the value would use it. */
function Harness({
  initial,
  onChange,
  allowEmpty,
}: {
  initial: string;
  onChange: (v: string) => void;
  allowEmpty?: boolean;
}) {
  const [value, setValue] = useState(initial);
  return (
    <Theme>
      <ColorInput
        label="Background color"
        value={value}
        testId="color"
        allowEmpty={allowEmpty}
        onChange={(v) => {
          onChange(v);
          setValue(v);
        }}
      />
    </Theme>
  );
}

describe("ColorInput", () => {
  let container: HTMLDivElement;
  let root: Root;
  const onChange = vi.fn();
  beforeEach(() => {
    onChange.mockReset();
    container = document.createElement("div");
    document.body.appendChild(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
  });

  const mount = (initial = "#112233", allowEmpty = false) => {
    act(() => root.render(<Harness initial={initial} onChange={onChange} allowEmpty={allowEmpty} />));
    const field = container.querySelector<HTMLInputElement>('[data-testid="color"]')!;
    const swatch = container.querySelector<HTMLInputElement>('[data-testid="color.swatch"]')!;
    act(() => field.focus());
    return { field, swatch };
  };

  test("no colour (transparent) is shown as None, not as an error, and a colour can be typed over it", () => {
    const { field, swatch } = mount("", true);
    expect(field.getAttribute("aria-invalid")).toBeNull();
    expect(field.placeholder).toBe("None");
    expect(swatch.className).toBe("color-swatch-none");
    type(field, "#0a0");
    expect(onChange).toHaveBeenLastCalledWith("#0a0");
    expect(swatch.className).toBe("");
  });

  test("labelled text field (at most 7 characters) and a native colour swatch", () => {
    const { field, swatch } = mount();
    expect(field.getAttribute("aria-label")).toBe("Background color");
    expect(field.maxLength).toBe(7);
    expect(swatch.type).toBe("color");
    expect(swatch.getAttribute("aria-label")).toBe("Background color picker");
    expect(swatch.value).toBe("#112233");
  });

  test("#abc and #aabbcc are committed as typed; a 3-digit value is expanded for the swatch", () => {
    const { field, swatch } = mount();
    type(field, "#abc");
    expect(onChange).toHaveBeenLastCalledWith("#abc");
    expect(swatch.value).toBe("#aabbcc");
    type(field, "#AABBCD");
    expect(onChange).toHaveBeenLastCalledWith("#AABBCD");
    expect(swatch.value).toBe("#aabbcd");
    act(() => field.blur());
    expect(field.value).toBe("#AABBCD");
  });

  test.each(["#abcd", "red", "#ggg", "#12345", "abc", "#"])(
    "%s is not committed, stays while focused and reverts on blur",
    (bad) => {
      const { field, swatch } = mount("#112233");
      type(field, "#abc");
      onChange.mockClear();
      type(field, bad);
      expect(onChange).not.toHaveBeenCalled();
      expect(field.value).toBe(bad);
      expect(field.getAttribute("aria-invalid")).toBe("true");
      expect(swatch.value).toBe("#aabbcc");
      act(() => field.blur());
      expect(field.value).toBe("#abc");
      expect(field.hasAttribute("aria-invalid")).toBe(false);
      expect(onChange).not.toHaveBeenCalled();
    },
  );

  test("an invalid value reverts to the last valid one even when the parent has not re-rendered", () => {
    const changes: string[] = [];
    act(() =>
      root.render(<ColorInput label="Text color" value="#000000" onChange={(v) => changes.push(v)} testId="c" />),
    );
    const field = container.querySelector<HTMLInputElement>('[data-testid="c"]')!;
    act(() => field.focus());
    type(field, "#fff");
    type(field, "#ffff");
    act(() => field.blur());
    expect(changes).toEqual(["#fff"]);
    expect(field.value).toBe("#fff");
  });

  test("picking on the swatch commits its value", () => {
    const { field, swatch } = mount();
    type(swatch, "#ff0000");
    expect(onChange).toHaveBeenLastCalledWith("#ff0000");
    expect(field.value).toBe("#ff0000");
  });

  test("a new value from outside replaces the field when it is not being edited", () => {
    act(() => root.render(<ColorInput label="Text color" value="#000000" onChange={onChange} testId="c" />));
    act(() => root.render(<ColorInput label="Text color" value="#123" onChange={onChange} testId="c" />));
    const field = container.querySelector<HTMLInputElement>('[data-testid="c"]')!;
    expect(field.value).toBe("#123");
    expect(onChange).not.toHaveBeenCalled();
  });

  test("swatchValue", () => {
    expect(swatchValue("#ABC")).toBe("#aabbcc");
    expect(swatchValue("#A1B2C3")).toBe("#a1b2c3");
    expect(swatchValue("blue")).toBe("#000000");
  });
});
