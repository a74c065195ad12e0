import { Badge, Box, Card, Flex, Heading, Switch, Text, TextField } from "@radix-ui/themes";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import type { Awareness } from "y-protocols/awareness";
import type * as Y from "yjs";
import { BOUNDS, newElement, type CtaDesign, type CtaElement, type ElementType } from "@convex/lib/cta/design";
import {
  addElement,
  bringForward,
  bringToFront,
  centre,
  deletedBy,
  localCtaUndoManager,
  nudge,
  readCtaDoc,
  removeElement,
  restoreElement,
  sendBackward,
  sendToBack,
  setSetting,
  updateElement,
} from "@convex/lib/cta/draft";
import { useDocValue } from "@/lib/collab/useDocValue";
import { useLocalUndo, useLostSelection, useShareSelection } from "@/lib/collab/useDesignSession";
import { useRemoteSelections } from "@/lib/collab/useRemoteSelections";
import { useRoomPresence } from "@/lib/presence/useRoomPresence";
import { useViewer } from "@/session/ViewerProvider";
import { PresenceAvatars } from "@/ui/PresenceAvatars";
import { CollabTextField } from "@/ui/CollabText";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { DeletedNotice } from "@/ui/DeletedNotice";
import { UndoRedoButtons } from "@/ui/UndoRedoButtons";
import { CtaCanvas } from "./CtaCanvas";
import { CtaElementList } from "./CtaElementList";
import { CtaPropertiesPanel } from "./CtaPropertiesPanel";

export const EMPTY_DESIGN: CtaDesign = {
  name: "",
  description: "",
  width: BOUNDS.width.def,
  height: BOUNDS.height.def,
  backgroundColor: "#ffffff",
  gridSize: BOUNDS.grid.def,
  snapToGrid: true,
  elements: [],
};

export function newElementId(): string {
  return `el-${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
}

export type CreatorMode = "new" | "cta" | "template";

type Props = {
  doc: Y.Doc;
  awareness: Awareness | null;
  room: string | null;
  mode: CreatorMode;
  readOnly: boolean;
  saving: boolean;
  unsaved: boolean;
  /** the left panel (templates, add elements, brand colours), given the actions it needs */
  left: (actions: { add: (type: ElementType) => void; brandColor: (color: string) => void }) => ReactNode;
  /** Save CTA / Update CTA / Save Template and the other toolbar actions */
  toolbar: ReactNode;
  onUpload: (file: File) => Promise<string | null>;
};

/**
 * The CTA creator's editing surface (spec/3 §2.9): settings bar, toolbar with undo/redo, badges,
 * the fabric canvas, and the properties panel. Everything edits the Yjs document `doc` (co-edited
 * when it is a saved CTA's room): teammates' changes and selections show live; undo and redo take
 * back only this user's changes.
 */
export function CtaCreator({ doc, awareness, room, mode, readOnly, saving, unsaved, left, toolbar, onUpload }: Props) {
  const design = useDocValue(doc, readCtaDoc, EMPTY_DESIGN);
  const { me } = useViewer();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [showGrid, setShowGrid] = useState(true);
  const remote = useRemoteSelections(awareness);
  const { present } = useRoomPresence(room);
  const others = (present ?? []).filter((p) => p.userId !== me?.userId);
  const undo = useLocalUndo(doc, localCtaUndoManager, readOnly);
  useShareSelection(awareness, selectedId, !readOnly);
  const selected = design.elements.find((e) => e.id === selectedId) ?? null;
  const [area, setArea] = useState<HTMLDivElement | null>(null);
  const areaWidth = useWidth(area);
  // on a narrow screen the canvas shrinks to fit (the design keeps its size)
  const scale = areaWidth ? Math.min(1, Math.max(0.2, (areaWidth - 24) / design.width)) : 1;

  // a teammate deleted the selected element: the selection goes, and the user is told (with Undo)
  const clearSelection = useCallback(() => setSelectedId(null), []);
  const whoDeleted = useCallback((id: string) => deletedBy(doc, id), [doc]);
  const lost = useLostSelection({
    selectedId,
    present: !!selected,
    deletedBy: whoDeleted,
    myName: me?.name,
    clear: clearSelection,
  });
  const [confirmDelete, setConfirmDelete] = useState<CtaElement | null>(null);
  const propsRef = useRef<HTMLDivElement>(null);
  // Enter in the element list: edit the selected element (its text, else its position)
  const editSelected = () => {
    const panel = propsRef.current;
    const field =
      panel?.querySelector<HTMLElement>('[data-testid="cta.prop.text"]') ??
      panel?.querySelector<HTMLElement>('[data-testid="cta.prop.x"]');
    field?.focus();
  };
  const remove = (el: CtaElement) => {
    removeElement(doc, el.id, me?.name ?? "");
    setSelectedId(null);
  };

  const add = (type: ElementType) => {
    const top = design.elements.reduce((z, e) => Math.max(z, e.zIndex), 0);
    const el = addElement(doc, newElement(type, newElementId(), { zIndex: Math.min(BOUNDS.zIndex.max, top + 1) }));
    if (el) setSelectedId(el.id);
  };
  const title = mode === "template" ? "Editing Template" : mode === "cta" ? "Editing CTA" : "CTA Creator";

  return (
    <Box>
      <Card mb="3" data-testid="cta.settings">
        <Flex gap="3" wrap="wrap" align="end">
          <label style={{ flex: "2 1 200px" }}>
            <Text size="1" weight="medium">
              Name
            </Text>
            <CollabTextField
              value={design.name}
              maxLength={120}
              readOnly={readOnly}
              onChange={(e) => setSetting(doc, "name", e.target.value)}
              placeholder="e.g. Volunteer button"
              data-testid="cta.name"
            />
          </label>
          <label style={{ flex: "3 1 240px" }}>
            <Text size="1" weight="medium">
              Description
            </Text>
            <CollabTextField
              value={design.description}
              maxLength={500}
              readOnly={readOnly}
              onChange={(e) => setSetting(doc, "description", e.target.value)}
              data-testid="cta.description"
            />
          </label>
          <label style={{ flex: "0 1 110px" }}>
            <Text size="1" weight="medium">
              Grid Size
            </Text>
            <TextField.Root
              type="number"
              min={BOUNDS.grid.min}
              max={BOUNDS.grid.max}
              value={String(design.gridSize)}
              readOnly={readOnly}
              onChange={(e) => {
                const n = Number(e.target.value);
                if (Number.isFinite(n) && n >= BOUNDS.grid.min && n <= BOUNDS.grid.max)
                  setSetting(doc, "gridSize", Math.round(n));
              }}
              data-testid="cta.gridSize"
            />
          </label>
          <Text as="label" size="2">
            <Flex gap="2" align="center" pb="2">
              <Switch
                checked={design.snapToGrid}
                disabled={readOnly}
                onCheckedChange={(v) => setSetting(doc, "snapToGrid", v)}
                data-testid="cta.snap"
              />{" "}
              Snap to Grid
            </Flex>
          </Text>
        </Flex>
      </Card>
      <div className="cta-creator">
        <Card className="cta-creator-left">
          {left({
            add,
            brandColor: (color) =>
              selected && updateElement(doc, selected.id, selected.type === "text" ? { color } : { fill: color }),
          })}
        </Card>
        <Flex direction="column" gap="2" style={{ minWidth: 0 }}>
          <Flex justify="between" align="center" gap="2" wrap="wrap">
            <Heading as="h2" size="4" data-testid="cta.title">
              {title}
            </Heading>
            <Flex gap="1" wrap="wrap" align="center">
              {mode === "template" && <Badge color="purple">Editing Template</Badge>}
              {mode === "cta" && <Badge color="blue">Editing CTA</Badge>}
              {/* always laid out (hidden when idle), so the canvas never shifts under the pointer as a drag starts */}
              <Badge
                color="orange"
                data-testid="cta.dragging"
                style={{ visibility: dragging ? "visible" : "hidden" }}
                aria-hidden={!dragging || undefined}
              >
                Dragging...
              </Badge>
              <Badge
                color="green"
                style={{ visibility: selected ? "visible" : "hidden" }}
                aria-hidden={!selected || undefined}
              >
                Element Selected
              </Badge>
              <Badge color="gray" data-testid="cta.count">
                {design.elements.length} {design.elements.length === 1 ? "element" : "elements"}
              </Badge>
              {unsaved && (
                <Badge color="orange" data-testid="cta.unsaved">
                  Unsaved changes
                </Badge>
              )}
              {room && <PresenceAvatars people={others} label="editing" />}
            </Flex>
          </Flex>
          <Flex gap="2" wrap="wrap" align="center" data-testid="cta.toolbar">
            <UndoRedoButtons undo={undo} testId="cta" />
            {toolbar}
            <Text as="label" size="2">
              <Flex gap="1" align="center">
                <Switch size="1" checked={showGrid} onCheckedChange={setShowGrid} data-testid="cta.gridToggle" /> Grid
              </Flex>
            </Text>
            {saving && (
              <Text size="1" color="gray">
                Saving…
              </Text>
            )}
          </Flex>
          <Box className="cta-creator-canvas" data-testid="cta.canvasArea" ref={setArea}>
            {design.elements.length === 0 && (
              <Text as="p" size="2" color="gray" align="center" data-testid="cta.empty" mb="2">
                Start Creating Your CTA — add an element or pick a template.
              </Text>
            )}
            <CtaCanvas
              design={design}
              selectedId={selectedId}
              onSelect={setSelectedId}
              onChange={(id, patch) => updateElement(doc, id, patch)}
              onDraggingChange={setDragging}
              onNudge={(id, dx, dy) => nudge(doc, id, dx, dy)}
              remoteSelections={remote}
              showGrid={showGrid}
              readOnly={readOnly}
              scale={scale}
            />
          </Box>
          <CtaElementList
            design={design}
            selectedId={readOnly ? null : selectedId}
            onSelect={(id) => !readOnly && setSelectedId(id)}
            onEdit={editSelected}
          />
        </Flex>
        <Card className="cta-creator-right" ref={propsRef}>
          <CtaPropertiesPanel
            design={design}
            element={selected}
            readOnly={readOnly}
            onElement={(patch) => selected && updateElement(doc, selected.id, patch, { snap: false })}
            onSetting={(key, value) => setSetting(doc, key, value as never)}
            onLayer={(op) =>
              selected &&
              { front: bringToFront, forward: bringForward, backward: sendBackward, back: sendToBack }[op](
                doc,
                selected.id,
              )
            }
            onCentre={(m) => selected && centre(doc, selected.id, m)}
            onDelete={() => {
              if (!selected) return;
              if (hasContent(selected)) setConfirmDelete(selected);
              else remove(selected);
            }}
            notice={
              lost.lost &&
              !readOnly && (
                <DeletedNotice
                  by={lost.lost.by}
                  what="element"
                  testId="cta.deletedNotice"
                  onDismiss={lost.dismiss}
                  onUndo={() => {
                    const id = lost.lost!.id;
                    lost.dismiss();
                    if (restoreElement(doc, id)) setSelectedId(id);
                  }}
                />
              )
            }
            onUpload={onUpload}
            teammateNote={
              selected && remote.get(selected.id)?.length ? (
                <Text size="1" color="orange">
                  {remote
                    .get(selected.id)!
                    .map((t) => t.name)
                    .join(", ")}{" "}
                  also editing this element: both your changes are kept, typing included.
                </Text>
              ) : undefined
            }
          />
        </Card>
      </div>
      <ConfirmDialog
        open={confirmDelete !== null}
        onOpenChange={(o) => !o && setConfirmDelete(null)}
        title="Delete this element?"
        description={
          confirmDelete
            ? `${describeContent(confirmDelete)} Teammates editing it are told, and Undo brings it back.`
            : ""
        }
        onConfirm={() => {
          // still there (a teammate may have deleted it meanwhile)
          if (confirmDelete && readCtaDoc(doc).elements.some((e) => e.id === confirmDelete.id)) remove(confirmDelete);
          setConfirmDelete(null);
        }}
      />
    </Box>
  );
}

/** Whether deleting an element loses something someone wrote or chose: text, an image, a link. */
function hasContent(el: CtaElement): boolean {
  return (el.type === "text" && (el.text ?? "").trim() !== "") || (el.type === "image" && !!el.src) || el.link !== "";
}

function describeContent(el: CtaElement): string {
  const quoted = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}…` : s);
  if (el.type === "text" && (el.text ?? "").trim())
    return `The text “${quoted((el.text ?? "").trim())}” will be removed from the design.`;
  if (el.type === "image" && el.src) return "The image will be removed from the design.";
  return `The ${el.type} and its link will be removed from the design.`;
}

/** An element's content width, kept up to date. */
function useWidth(el: HTMLElement | null): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    setWidth(el.clientWidth);
    return () => observer.disconnect();
  }, [el]);
  return width;
}
