import { AlignCenterHorizontallyIcon, AlignCenterVerticallyIcon, TrashIcon } from "@radix-ui/react-icons";
import {
  Box,
  Button,
  Flex,
  Grid,
  Heading,
  IconButton,
  Select,
  Separator,
  Text,
  TextField,
  Tooltip,
} from "@radix-ui/themes";
import { useRef, useState, type ReactNode } from "react";
import {
  BACKGROUNDS,
  BOUNDS,
  FONT_FAMILIES,
  FONT_WEIGHTS,
  isSafeImage,
  isSafeLink,
  SHADOWS,
  TEXT_ALIGNS,
  type CtaDesign,
  type CtaElement,
} from "@convex/lib/cta/design";
import type { CentreMode, ElementPatch, SettingKey } from "@convex/lib/cta/draft";
import { CollabTextArea } from "@/ui/CollabText";
import { ColorInput } from "@/ui/ColorInput";

type Props = {
  design: CtaDesign;
  element: CtaElement | null;
  readOnly: boolean;
  onElement: (patch: ElementPatch) => void;
  onSetting: (key: SettingKey, value: string | number | boolean) => void;
  onLayer: (op: "front" | "forward" | "backward" | "back") => void;
  onCentre: (mode: CentreMode) => void;
  onDelete: () => void;
  onUpload: (file: File) => Promise<string | null>;
  teammateNote?: ReactNode;
  /** shown at the top, e.g. that a teammate deleted the element this user was editing */
  notice?: ReactNode;
};

const TYPE_LABELS: Record<CtaElement["type"], string> = {
  text: "Text",
  image: "Image",
  rectangle: "Rectangle",
  circle: "Circle",
};

/** A number field committing values within bounds (on valid input; clamped on blur). */
function NumberField({
  label,
  value,
  min,
  max,
  onChange,
  disabled,
  testId,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  onChange: (n: number) => void;
  disabled: boolean;
  testId: string;
}) {
  const [text, setText] = useState<string | null>(null);
  const commit = (raw: string, clampNow: boolean) => {
    const n = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(n)) return;
    if (n >= min && n <= max) onChange(Math.round(n));
    else if (clampNow) onChange(Math.round(Math.max(min, Math.min(max, n))));
  };
  return (
    <label>
      <Text size="1" weight="medium">
        {label}
      </Text>
      <TextField.Root
        size="1"
        type="number"
        min={min}
        max={max}
        value={text ?? String(value)}
        disabled={disabled}
        onChange={(e) => {
          setText(e.target.value);
          commit(e.target.value, false);
        }}
        onBlur={(e) => {
          commit(e.target.value, true);
          setText(null);
        }}
        data-testid={testId}
      />
    </label>
  );
}

/** A link or image address: committed only when safe; an error says why otherwise. */
function UrlField({
  label,
  value,
  check,
  onChange,
  disabled,
  testId,
  hint,
}: {
  label: string;
  value: string;
  check: (v: string) => boolean;
  onChange: (v: string) => void;
  disabled: boolean;
  testId: string;
  hint: string;
}) {
  const [text, setText] = useState<string | null>(null);
  const shown = text ?? value;
  const bad = shown.trim() !== "" && !check(shown.trim());
  return (
    <label>
      <Text size="1" weight="medium">
        {label}
      </Text>
      <TextField.Root
        size="1"
        value={shown}
        placeholder="https://"
        disabled={disabled}
        aria-invalid={bad || undefined}
        onChange={(e) => {
          setText(e.target.value);
          const v = e.target.value.trim();
          if (v === "" || check(v)) onChange(v);
        }}
        onBlur={() => setText(null)}
        data-testid={testId}
      />
      {bad && (
        <Text size="1" color="red" role="alert">
          {hint}
        </Text>
      )}
    </label>
  );
}

function Choice<T extends string>({
  label,
  value,
  options,
  onChange,
  disabled,
  testId,
}: {
  label: string;
  value: T;
  options: readonly T[];
  onChange: (v: T) => void;
  disabled: boolean;
  testId: string;
}) {
  return (
    <Flex direction="column">
      <Text size="1" weight="medium">
        {label}
      </Text>
      <Select.Root size="1" value={value} onValueChange={(v) => onChange(v as T)} disabled={disabled}>
        <Select.Trigger aria-label={label} data-testid={testId} />
        <Select.Content>
          {options.map((o) => (
            <Select.Item key={o} value={o}>
              {o}
            </Select.Item>
          ))}
        </Select.Content>
      </Select.Root>
    </Flex>
  );
}

/** The right panel: the selected element's properties, layers, centring and delete; then the canvas settings. */
export function CtaPropertiesPanel({
  design,
  element: el,
  readOnly,
  onElement,
  onSetting,
  onLayer,
  onCentre,
  onDelete,
  onUpload,
  teammateNote,
  notice,
}: Props) {
  const fileRef = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  return (
    <Flex direction="column" gap="3" data-testid="cta.props">
      {notice}
      {el ? (
        <Flex direction="column" gap="2" key={el.id}>
          <Flex justify="between" align="center">
            <Heading as="h2" size="3">
              {TYPE_LABELS[el.type]}
            </Heading>
            <Button
              size="1"
              color="red"
              variant="soft"
              onClick={onDelete}
              disabled={readOnly}
              data-testid="cta.props.delete"
            >
              <TrashIcon /> Delete
            </Button>
          </Flex>
          {teammateNote}
          {el.type === "text" && (
            <label>
              <Text size="1" weight="medium">
                Text
              </Text>
              <CollabTextArea
                size="1"
                value={el.text ?? ""}
                maxLength={500}
                disabled={readOnly}
                onChange={(e) => onElement({ text: e.target.value })}
                data-testid="cta.prop.text"
              />
            </label>
          )}
          <Grid columns="2" gap="2">
            <NumberField
              label="X"
              value={el.x}
              min={0}
              max={Math.max(0, design.width - 50)}
              onChange={(x) => onElement({ x })}
              disabled={readOnly}
              testId="cta.prop.x"
            />
            <NumberField
              label="Y"
              value={el.y}
              min={0}
              max={Math.max(0, design.height - 20)}
              onChange={(y) => onElement({ y })}
              disabled={readOnly}
              testId="cta.prop.y"
            />
            <NumberField
              label="Width"
              value={el.width}
              min={BOUNDS.size.min}
              max={BOUNDS.size.max}
              onChange={(width) => onElement({ width })}
              disabled={readOnly}
              testId="cta.prop.width"
            />
            <NumberField
              label="Height"
              value={el.height}
              min={BOUNDS.size.min}
              max={BOUNDS.size.max}
              onChange={(height) => onElement({ height })}
              disabled={readOnly}
              testId="cta.prop.height"
            />
          </Grid>
          {el.type === "text" && (
            <>
              <Grid columns="2" gap="2">
                <NumberField
                  label="Font size"
                  value={el.fontSize ?? 16}
                  min={BOUNDS.fontSize.min}
                  max={BOUNDS.fontSize.max}
                  onChange={(fontSize) => onElement({ fontSize })}
                  disabled={readOnly}
                  testId="cta.prop.fontSize"
                />
                <Choice
                  label="Weight"
                  value={el.fontWeight ?? "normal"}
                  options={FONT_WEIGHTS}
                  onChange={(fontWeight) => onElement({ fontWeight })}
                  disabled={readOnly}
                  testId="cta.prop.fontWeight"
                />
              </Grid>
              <Choice
                label="Font"
                value={el.fontFamily ?? "Arial"}
                options={FONT_FAMILIES}
                onChange={(fontFamily) => onElement({ fontFamily })}
                disabled={readOnly}
                testId="cta.prop.fontFamily"
              />
              <Choice
                label="Alignment"
                value={el.textAlign ?? "left"}
                options={TEXT_ALIGNS}
                onChange={(textAlign) => onElement({ textAlign })}
                disabled={readOnly}
                testId="cta.prop.textAlign"
              />
              <Box>
                <Text size="1" weight="medium">
                  Text color
                </Text>
                <ColorInput
                  label="Text color"
                  value={el.color ?? "#111827"}
                  onChange={(color) => onElement({ color })}
                  disabled={readOnly}
                  testId="cta.prop.color"
                />
              </Box>
            </>
          )}
          <Box>
            <Text size="1" weight="medium">
              {el.type === "text" ? "Background" : "Fill"}
            </Text>
            <Flex gap="2" align="center">
              <Box style={{ flex: 1 }}>
                <ColorInput
                  label={el.type === "text" ? "Background" : "Fill"}
                  value={el.fill === "transparent" ? "" : el.fill}
                  allowEmpty
                  onChange={(fill) => onElement({ fill })}
                  disabled={readOnly}
                  testId="cta.prop.fill"
                />
              </Box>
              <Button
                size="1"
                variant="soft"
                color="gray"
                disabled={readOnly || el.fill === "transparent"}
                onClick={() => onElement({ fill: "transparent" })}
              >
                None
              </Button>
            </Flex>
          </Box>
          <Grid columns="2" gap="2">
            <NumberField
              label="Corner radius"
              value={el.borderRadius}
              min={BOUNDS.borderRadius.min}
              max={BOUNDS.borderRadius.max}
              onChange={(borderRadius) => onElement({ borderRadius })}
              disabled={readOnly}
              testId="cta.prop.borderRadius"
            />
            <Choice
              label="Shadow"
              value={el.shadow}
              options={SHADOWS}
              onChange={(shadow) => onElement({ shadow })}
              disabled={readOnly}
              testId="cta.prop.shadow"
            />
          </Grid>
          {el.type === "image" && (
            <>
              <UrlField
                label="Image URL"
                value={el.src ?? ""}
                check={isSafeImage}
                onChange={(src) => onElement({ src })}
                disabled={readOnly}
                testId="cta.prop.src"
                hint="Enter an image address starting with https://"
              />
              <input
                ref={fileRef}
                type="file"
                accept="image/png,image/jpeg,image/gif,image/webp"
                hidden
                data-testid="cta.prop.upload.input"
                onChange={async (e) => {
                  const file = e.target.files?.[0];
                  e.target.value = "";
                  if (!file) return;
                  setUploading(true);
                  const url = await onUpload(file);
                  setUploading(false);
                  if (url) onElement({ src: url });
                }}
              />
              <Button
                size="1"
                variant="soft"
                loading={uploading}
                disabled={readOnly}
                onClick={() => fileRef.current?.click()}
                data-testid="cta.prop.upload"
              >
                Upload image
              </Button>
            </>
          )}
          <UrlField
            label="Link (where a click goes)"
            value={el.link}
            check={isSafeLink}
            onChange={(link) => onElement({ link })}
            disabled={readOnly}
            testId="cta.prop.link"
            hint="Enter a web address starting with https:// (or mailto:, tel:)"
          />
          <NumberField
            label="Layer (z-index)"
            value={el.zIndex}
            min={BOUNDS.zIndex.min}
            max={BOUNDS.zIndex.max}
            onChange={(zIndex) => onElement({ zIndex })}
            disabled={readOnly}
            testId="cta.prop.zIndex"
          />
          <Flex gap="1" wrap="wrap" role="group" aria-label="Layer order">
            <Button
              size="1"
              variant="soft"
              disabled={readOnly}
              onClick={() => onLayer("front")}
              data-testid="cta.layer.front"
            >
              Bring to front
            </Button>
            <Button
              size="1"
              variant="soft"
              disabled={readOnly}
              onClick={() => onLayer("forward")}
              data-testid="cta.layer.forward"
            >
              Bring forward
            </Button>
            <Button
              size="1"
              variant="soft"
              disabled={readOnly}
              onClick={() => onLayer("backward")}
              data-testid="cta.layer.backward"
            >
              Send backward
            </Button>
            <Button
              size="1"
              variant="soft"
              disabled={readOnly}
              onClick={() => onLayer("back")}
              data-testid="cta.layer.back"
            >
              Send to back
            </Button>
          </Flex>
          <Flex gap="1" align="center" role="group" aria-label="Centre on the canvas">
            <Tooltip content="Centre horizontally">
              <IconButton
                size="1"
                variant="soft"
                aria-label="Centre horizontally"
                disabled={readOnly}
                onClick={() => onCentre("horizontal")}
                data-testid="cta.centre.horizontal"
              >
                <AlignCenterHorizontallyIcon />
              </IconButton>
            </Tooltip>
            <Tooltip content="Centre vertically">
              <IconButton
                size="1"
                variant="soft"
                aria-label="Centre vertically"
                disabled={readOnly}
                onClick={() => onCentre("vertical")}
                data-testid="cta.centre.vertical"
              >
                <AlignCenterVerticallyIcon />
              </IconButton>
            </Tooltip>
            <Button
              size="1"
              variant="soft"
              disabled={readOnly}
              onClick={() => onCentre("both")}
              data-testid="cta.centre.both"
            >
              Centre both
            </Button>
          </Flex>
        </Flex>
      ) : (
        <Text size="2" color="gray">
          Select an element on the canvas to edit it. Arrow keys move it by 1 px, with Shift by 10.
        </Text>
      )}
      <Separator size="4" />
      <Heading as="h2" size="3">
        Canvas settings
      </Heading>
      <Grid columns="2" gap="2">
        <NumberField
          label="Canvas width"
          value={design.width}
          min={BOUNDS.width.min}
          max={BOUNDS.width.max}
          onChange={(w) => onSetting("width", w)}
          disabled={readOnly}
          testId="cta.canvas.width"
        />
        <NumberField
          label="Canvas height"
          value={design.height}
          min={BOUNDS.height.min}
          max={BOUNDS.height.max}
          onChange={(h) => onSetting("height", h)}
          disabled={readOnly}
          testId="cta.canvas.height"
        />
      </Grid>
      <Choice
        label="Background"
        value={design.backgroundColor as (typeof BACKGROUNDS)[number]}
        options={BACKGROUNDS}
        onChange={(b) => onSetting("backgroundColor", b)}
        disabled={readOnly}
        testId="cta.canvas.background"
      />
    </Flex>
  );
}
