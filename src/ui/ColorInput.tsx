import { Flex, TextField } from "@radix-ui/themes";
import { useState, type ChangeEvent } from "react";
import { isHexColor } from "@convex/lib/colors";

type ColorInputProps = {
  /** The accessible name of the text field; the swatch is "<label> picker". */
  label: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  id?: string;
  /** data-testid of the text field; the swatch gets "<testId>.swatch". */
  testId?: string;
  /** an empty value means "no colour" (transparent): shown as None, not as an error */
  allowEmpty?: boolean;
};

/** The form `<input type="color">` takes: "#abc" → "#aabbcc", lower case; anything else black. */
export function swatchValue(value: string): string {
  if (!isHexColor(value)) return "#000000";
  const hex = value.slice(1).toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex}`;
}

const swatchStyle = {
  flexShrink: 0,
  width: "var(--space-6)",
  height: "var(--space-6)",
  padding: 0,
  border: "1px solid var(--gray-a7)",
  borderRadius: "var(--radius-2)",
  background: "none",
  cursor: "pointer",
} as const;

/**
 * A colour as `#` and 3 or 6 hex digits (spec/2 §5): a text field plus the browser's colour picker.
 * A valid value is committed as it is typed; an invalid one stays in the field while it has focus
 * and reverts to the last valid value on blur.
 */
export function ColorInput({ label, value, onChange, disabled, id, testId, allowEmpty }: ColorInputProps) {
  const [draft, setDraft] = useState(value);
  const [lastValid, setLastValid] = useState(value);
  const [focused, setFocused] = useState(false);
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    // a new value from outside (undo, a teammate, another block): shown unless the user is mid-edit
    setSeen(value);
    setLastValid(value);
    if (!focused || isHexColor(draft)) setDraft(value);
  }

  const commit = (next: string) => {
    setLastValid(next);
    onChange(next);
  };
  const handleText = (e: ChangeEvent<HTMLInputElement>) => {
    const next = e.target.value.trim();
    setDraft(next);
    if (isHexColor(next) && next !== lastValid) commit(next);
  };
  const handleSwatch = (e: ChangeEvent<HTMLInputElement>) => {
    setDraft(e.target.value);
    if (e.target.value !== lastValid) commit(e.target.value);
  };
  const handleBlur = () => {
    setFocused(false);
    if (!isHexColor(draft)) setDraft(lastValid);
  };

  const none = allowEmpty === true && draft === "";
  const invalid = !isHexColor(draft) && !none;
  return (
    <Flex gap="2" align="center" style={{ minWidth: 0 }}>
      <input
        type="color"
        aria-label={`${label} picker`}
        value={swatchValue(invalid ? lastValid : draft)}
        onChange={handleSwatch}
        disabled={disabled}
        data-testid={testId ? `${testId}.swatch` : undefined}
        className={none ? "color-swatch-none" : undefined}
        style={swatchStyle}
      />
      <TextField.Root
        id={id}
        aria-label={label}
        aria-invalid={invalid || undefined}
        value={draft}
        maxLength={7}
        placeholder={allowEmpty ? "None" : "#000000"}
        autoComplete="off"
        onChange={handleText}
        onFocus={() => setFocused(true)}
        onBlur={handleBlur}
        disabled={disabled}
        color={invalid ? "red" : undefined}
        data-testid={testId}
        style={{ flex: 1, minWidth: 0, fontFamily: "var(--code-font-family)" }}
      />
    </Flex>
  );
}
