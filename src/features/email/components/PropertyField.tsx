import { UploadIcon } from "@radix-ui/react-icons";
import { Button, Flex, Select, Switch, Text, TextField } from "@radix-ui/themes";
import { useEffect, useId, useRef, useState, type ChangeEvent, type KeyboardEvent, type ReactNode } from "react";
import { isSafeUrl, normalizeProp, type BlockValue, type PropSpec } from "@convex/lib/email/blocks";
import { CollabTextArea, CollabTextField } from "@/ui/CollabText";
import { ColorInput } from "@/ui/ColorInput";

/** Human-readable names of the block properties (BLOCK_PROPS keys). */
export const PROP_LABELS: Record<string, string> = {
  text: "Text",
  title: "Title",
  tagline: "Tagline",
  logoUrl: "Logo URL",
  level: "Heading level",
  fontSize: "Font size",
  color: "Text color",
  align: "Alignment",
  textAlign: "Text alignment",
  lineHeight: "Line height",
  letterSpacing: "Letter spacing",
  src: "Image URL",
  alt: "Alt text",
  width: "Width",
  href: "Link URL",
  url: "Link URL",
  backgroundColor: "Background color",
  textColor: "Text color",
  padding: "Padding",
  borderRadius: "Corner radius",
  height: "Height",
  borderColor: "Line color",
  borderWidth: "Line thickness",
  margin: "Margin",
  columns: "Columns",
  gap: "Gap",
  distribution: "Column widths",
  heroTitle: "Title",
  heroSubtitle: "Subtitle",
  backgroundImage: "Background image URL",
  overlay: "Dark overlay",
  overlayOpacity: "Overlay opacity",
  shadow: "Shadow",
  sidebarWidth: "Sidebar width (%)",
  sidebarPosition: "Sidebar position",
  sidebarBackground: "Sidebar background",
  mainBackground: "Main background",
  maxWidth: "Max width",
  companyName: "Company name",
  copyrightYear: "Copyright year",
  address: "Address",
  showUnsubscribe: "Show unsubscribe link",
  unsubscribeText: "Unsubscribe link text",
  showPrivacy: "Show privacy link",
  privacyText: "Privacy link text",
  privacyUrl: "Privacy policy URL",
  showContact: "Show contact link",
  contactText: "Contact link text",
  contactUrl: "Contact URL",
  linkColor: "Link color",
};

/** A property's label: from PROP_LABELS, else its key in words ("someKey" → "Some key"). */
export function propLabel(key: string): string {
  if (PROP_LABELS[key]) return PROP_LABELS[key];
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Numbers without a unit; sidebarWidth is a percentage; every other number is a size in px. */
const UNITLESS = new Set(["overlayOpacity", "columns", "copyrightYear"]);
function unitOf(key: string): string {
  if (key === "sidebarWidth") return "%";
  return UNITLESS.has(key) ? "" : "px";
}

const CHOICE_LABELS: Record<string, string> = {
  equal: "Equal",
  "1-2": "1 : 2",
  "2-1": "2 : 1",
  "1-3": "1 : 3",
  "3-1": "3 : 1",
  none: "None",
  sm: "Small",
  md: "Medium",
  lg: "Large",
  xl: "Extra large",
  left: "Left",
  center: "Center",
  right: "Right",
  justify: "Justify",
  "0em": "0em (normal)",
};
/** How a choice option is shown: heading levels as H1–H6, distributions as ratios, numbers as they are. */
function choiceLabel(option: string | number): string {
  if (typeof option === "number") return String(option);
  if (/^h[1-6]$/.test(option)) return option.toUpperCase();
  return CHOICE_LABELS[option] ?? option;
}

export const URL_ERROR = "Enter a web address starting with https:// (or mailto:)";

/** What the user is partway through typing: a prefix of a scheme (no error shown for it yet). */
function isSchemePrefix(value: string): boolean {
  const v = value.toLowerCase();
  return v !== "" && ["https://", "http://", "mailto:"].some((s) => s.startsWith(v));
}

/**
 * The text in a field, kept apart from the committed value so that a half-typed entry survives
 * re-renders; a new value from outside replaces it unless the field has focus.
 */
function useDraft(value: BlockValue, show: (v: BlockValue) => string) {
  const [draft, setDraft] = useState(() => show(value));
  const [sent, setSent] = useState(value);
  const [focused, setFocused] = useState(false);
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setSent(value);
    if (!focused) setDraft(show(value));
  }
  return { draft, setDraft, sent, setSent, focused, setFocused };
}

type ControlProps<V extends BlockValue> = {
  id: string;
  name: string;
  label: string;
  value: V;
  onChange: (value: BlockValue) => void;
  disabled?: boolean;
};

function NumberControl({
  id,
  name,
  label,
  value,
  onChange,
  disabled,
  spec,
}: ControlProps<number> & { spec: Extract<PropSpec, { kind: "number" }> }) {
  const d = useDraft(value, String);
  const unit = unitOf(name);
  const parse = (s: string) => (s.trim() === "" ? NaN : Number(s));
  const send = (v: BlockValue) => {
    if (v === d.sent) return;
    d.setSent(v);
    onChange(v);
  };
  const handleChange = (e: ChangeEvent<HTMLInputElement>) => {
    d.setDraft(e.target.value);
    const n = parse(e.target.value);
    // only what is already within bounds while typing ("1" on the way to "16" is not sent)
    if (Number.isFinite(n) && n >= spec.min && n <= spec.max) send(normalizeProp(spec, n));
  };
  const commit = () => {
    const n = parse(d.draft);
    const v = Number.isFinite(n) ? normalizeProp(spec, n) : d.sent;
    d.setDraft(String(v));
    send(v);
  };
  return (
    <TextField.Root
      id={id}
      type="number"
      inputMode="decimal"
      aria-label={label}
      min={spec.min}
      max={spec.max}
      step={spec.step ?? 1}
      value={d.draft}
      onChange={handleChange}
      onFocus={() => d.setFocused(true)}
      onBlur={() => {
        d.setFocused(false);
        commit();
      }}
      onKeyDown={(e: KeyboardEvent) => e.key === "Enter" && commit()}
      disabled={disabled}
      data-testid={`email.prop.${name}`}
    >
      {unit && (
        <TextField.Slot side="right">
          <Text size="1" color="gray" aria-hidden>
            {unit}
          </Text>
        </TextField.Slot>
      )}
    </TextField.Root>
  );
}

/**
 * Typed text: a Y.Text in the design, shown live (a teammate's typing in the same text appears as
 * they type, the caret kept in place); each keystroke sends the whole value, of which the draft
 * stores only the difference, so both people's keystrokes stay.
 */
function TextControl({
  id,
  name,
  label,
  value,
  onChange,
  disabled,
  spec,
}: ControlProps<string> & { spec: Extract<PropSpec, { kind: "text" }> }) {
  const common = {
    id,
    "aria-label": label,
    value,
    maxLength: spec.max,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(e.target.value.slice(0, spec.max)),
    disabled,
    "data-testid": `email.prop.${name}`,
  };
  return spec.multiline ? <CollabTextArea {...common} rows={4} resize="vertical" /> : <CollabTextField {...common} />;
}

type UrlControlProps = ControlProps<string> & { upload?: (file: File) => Promise<string | null> };

function UrlControl({ id, name, label, value, onChange, disabled, upload }: UrlControlProps) {
  const d = useDraft(value, String);
  const [uploading, setUploading] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);
  const errorId = `${id}-error`;
  const trimmed = d.draft.trim();
  const invalid = trimmed !== "" && !isSafeUrl(trimmed) && !isSchemePrefix(trimmed);

  const send = (v: string) => {
    if (v === d.sent) return;
    d.setSent(v);
    onChange(v);
  };
  const handleChange = (e: ChangeEvent<HTMLInputElement>) => {
    d.setDraft(e.target.value);
    const next = e.target.value.trim();
    if (next === "" || isSafeUrl(next)) send(next);
  };
  const handleBlur = () => {
    d.setFocused(false);
    // a bare "https://" left behind means no address (unless it is what was there already)
    if (isSchemePrefix(trimmed) && trimmed !== d.sent) send("");
  };
  const handleFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = ""; // the same file may be picked again
    if (!file || !upload) return;
    setUploading(true);
    try {
      const url = await upload(file);
      // another block selected meanwhile: this field (and its block) is gone
      if (url && alive.current) {
        d.setDraft(url);
        send(url);
      }
    } finally {
      if (alive.current) setUploading(false);
    }
  };

  return (
    <Flex direction="column" gap="1">
      <TextField.Root
        id={id}
        type="url"
        inputMode="url"
        aria-label={label}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? errorId : undefined}
        placeholder="https://"
        value={d.draft}
        onChange={handleChange}
        onFocus={() => d.setFocused(true)}
        onBlur={handleBlur}
        disabled={disabled || uploading}
        color={invalid ? "red" : undefined}
        data-testid={`email.prop.${name}`}
      />
      {invalid && (
        <Text id={errorId} size="1" color="red" role="alert" data-testid={`email.prop.${name}.error`}>
          {URL_ERROR}
        </Text>
      )}
      {upload && (
        <Flex>
          <input
            ref={fileRef}
            type="file"
            accept="image/*"
            hidden
            tabIndex={-1}
            aria-label={`${label}: image file`}
            onChange={(e) => void handleFile(e)}
            data-testid={`email.props.upload.${name}.input`}
          />
          <Button
            type="button"
            size="1"
            variant="soft"
            loading={uploading}
            aria-busy={uploading || undefined}
            disabled={disabled || uploading}
            onClick={() => fileRef.current?.click()}
            data-testid={`email.props.upload.${name}`}
          >
            <UploadIcon /> Upload image
          </Button>
        </Flex>
      )}
    </Flex>
  );
}

function ChoiceControl({
  id,
  name,
  label,
  value,
  onChange,
  disabled,
  spec,
}: ControlProps<string | number> & { spec: Extract<PropSpec, { kind: "choice" }> }) {
  const handleChange = (v: string) => {
    const option = spec.options.find((o) => String(o) === v);
    if (option !== undefined && option !== value) onChange(option);
  };
  return (
    <Select.Root value={String(value)} onValueChange={handleChange} disabled={disabled}>
      <Select.Trigger id={id} aria-label={label} data-testid={`email.prop.${name}`} style={{ width: "100%" }} />
      <Select.Content position="popper">
        {spec.options.map((o) => (
          <Select.Item key={String(o)} value={String(o)}>
            {choiceLabel(o)}
          </Select.Item>
        ))}
      </Select.Content>
    </Select.Root>
  );
}

type PropertyFieldProps = {
  /** The property's key in BLOCK_PROPS (also its test id: email.prop.<name>). */
  name: string;
  spec: PropSpec;
  /** The stored value; anything outside the spec is shown as normalizeProp makes it. */
  value: unknown;
  onChange: (value: BlockValue) => void;
  /** Offered for url properties: uploads the file and resolves to its address (null: failed, already reported). */
  onUploadImage?: (file: File) => Promise<string | null>;
  disabled?: boolean;
};

/** One property of the selected block, with the control its kind calls for and a visible label. */
export function PropertyField({ name, spec, value, onChange, onUploadImage, disabled }: PropertyFieldProps) {
  const id = useId();
  const label = propLabel(name);
  const common = { id, name, label, onChange, disabled };

  if (spec.kind === "boolean") {
    return (
      <Text as="label" size="2" htmlFor={id}>
        <Flex gap="2" align="center">
          <Switch
            id={id}
            aria-label={label}
            checked={normalizeProp(spec, value) as boolean}
            onCheckedChange={(c) => onChange(c)}
            disabled={disabled}
            data-testid={`email.prop.${name}`}
          />
          {label}
        </Flex>
      </Text>
    );
  }

  let control: ReactNode;
  switch (spec.kind) {
    case "number":
      control = <NumberControl {...common} spec={spec} value={normalizeProp(spec, value) as number} />;
      break;
    case "text":
      control = <TextControl {...common} spec={spec} value={typeof value === "string" ? value : spec.def} />;
      break;
    case "url":
      control = <UrlControl {...common} value={typeof value === "string" ? value : spec.def} upload={onUploadImage} />;
      break;
    case "color":
      control = (
        <ColorInput
          id={id}
          label={label}
          value={typeof value === "string" ? value : spec.def}
          onChange={onChange}
          disabled={disabled}
          testId={`email.prop.${name}`}
        />
      );
      break;
    case "choice":
      control = <ChoiceControl {...common} spec={spec} value={normalizeProp(spec, value) as string | number} />;
      break;
  }
  return (
    <Flex direction="column" gap="1" style={{ minWidth: 0 }}>
      <Text as="label" size="2" weight="medium" htmlFor={id}>
        {label}
      </Text>
      {control}
    </Flex>
  );
}
