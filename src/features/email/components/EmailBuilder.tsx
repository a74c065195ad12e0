import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  pointerWithin,
  useSensor,
  useSensors,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
} from "@dnd-kit/core";
import { sortableKeyboardCoordinates } from "@dnd-kit/sortable";
import { ListBulletIcon } from "@radix-ui/react-icons";
import { Badge, Box, Button, Card, Flex, Select, Text } from "@radix-ui/themes";
import { useCallback, useMemo, useState, type ReactNode } from "react";
import type { Awareness } from "y-protocols/awareness";
import type * as Y from "yjs";
import {
  BLOCK_LABELS,
  BLOCK_PROPS,
  allBlocks,
  newBlock,
  type BlockType,
  type EmailBlock,
} from "@convex/lib/email/blocks";
import {
  blockDeletedBy,
  cloneBlock,
  emptyMeta,
  insertBlock,
  localEmailUndoManager,
  moveBlock,
  readEmailDraft,
  removeBlock,
  restoreBlock,
  setEmailMeta,
  updateBlock,
  type BlockTarget,
  type EmailDraft,
} from "@convex/lib/email/draft";
import { documentTexts, unknownVariables } from "@convex/lib/email/merge";
import { useDocValue } from "@/lib/collab/useDocValue";
import { useLocalUndo, useLostSelection, useShareSelection } from "@/lib/collab/useDesignSession";
import { useRemoteSelections } from "@/lib/collab/useRemoteSelections";
import { useRoomPresence } from "@/lib/presence/useRoomPresence";
import { useViewer } from "@/session/ViewerProvider";
import { CollabTextField } from "@/ui/CollabText";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { DeletedNotice } from "@/ui/DeletedNotice";
import { PresenceAvatars } from "@/ui/PresenceAvatars";
import { UndoRedoButtons } from "@/ui/UndoRedoButtons";
import { useRenderedEmail } from "../hooks/useRenderedEmail";
import { allowedAt, dropTarget, findBlock, insertionPoint, placements } from "../utils/placement";
import { BlockList } from "./BlockList";
import { CampaignStatus } from "./CampaignStatus";
import { CanvasContext, type CanvasState } from "./canvasContext";
import { ComponentLibrary } from "./ComponentLibrary";
import { PropertyPanel } from "./PropertyPanel";
import { SettingsPanel } from "./SettingsPanel";

export function newId(): string {
  return crypto.randomUUID().replace(/-/g, "").slice(0, 16);
}

export type BuilderCampaign = { id: string; name: string; status: string; version: number } | null;

type EmailBuilderProps = {
  doc: Y.Doc;
  awareness: Awareness | null;
  room: string | null;
  campaign: BuilderCampaign;
  campaigns: Array<{ id: string; name: string; status: string }> | undefined;
  canManage: boolean;
  saving: boolean;
  unsaved: boolean;
  left: { templates: ReactNode };
  onPick: (id: string) => void;
  onSave: () => void;
  onDuplicate: () => void;
  onOpenList: () => void;
  onPreview: () => void;
  onTest: () => void;
  onHistory: (() => void) | null;
  onDelete: (() => void) | null;
  onUploadImage: (file: File) => Promise<string | null>;
};

/** Picks the innermost drop zone under the pointer (a column inside a section wins over the section); the keyboard uses the closest centre. */
const collision: CollisionDetection = (args) => {
  if (!args.pointerCoordinates) return closestCenter(args);
  const hits = pointerWithin(args);
  if (hits.length === 0) return closestCenter(args);
  const area = (id: string | number) => {
    const r = args.droppableRects.get(id);
    return r ? r.width * r.height : Infinity;
  };
  return [...hits].sort((a, b) => area(a.id) - area(b.id));
};

/**
 * The email builder (spec/2 §2.3): campaign picker, name, Save and Duplicate, templates and the
 * component library on the left; the 600 px canvas; the property panel (300 px) on the right; the
 * message settings below. Everything edits the co-edited Yjs document `doc`; teammates' changes
 * and selections show live; undo and redo affect only this user's changes.
 */
export function EmailBuilder(props: EmailBuilderProps) {
  const { doc, awareness, room, campaign, canManage } = props;
  const draft = useDocValue(doc, readEmailDraft, EMPTY_DRAFT);
  const { me } = useViewer();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [dragLabel, setDragLabel] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState<string | null>(null);
  const remote = useRemoteSelections(awareness);
  const { present } = useRoomPresence(room);
  const others = (present ?? []).filter((p) => p.userId !== me?.userId);
  const readOnly = !canManage;
  const undo = useLocalUndo(doc, localEmailUndoManager, readOnly);
  useShareSelection(awareness, selectedId, canManage);

  const rendered = useRenderedEmail(draft.blocks, { title: draft.meta.subject, previewText: draft.meta.previewText });
  const unknown = useMemo(
    () => unknownVariables(documentTexts(draft.blocks, [draft.meta.subject, draft.meta.previewText])),
    [draft],
  );
  const selected = selectedId ? findBlock(draft.blocks, selectedId) : null;
  // a teammate deleted the selected block (or the one holding it): the selection goes, and the user is told (with Undo)
  const clearSelection = useCallback(() => setSelectedId(null), []);
  const whoDeleted = useCallback((id: string) => blockDeletedBy(doc, id), [doc]);
  const lost = useLostSelection({
    selectedId,
    present: !!selected,
    deletedBy: whoDeleted,
    myName: me?.name,
    clear: clearSelection,
  });
  const [confirmDelete, setConfirmDelete] = useState<EmailBlock | null>(null);
  const remove = (block: EmailBlock) => {
    removeBlock(doc, block.id, me?.name ?? "");
    setSelectedId(null);
    announce(`${BLOCK_LABELS[block.type]} deleted.`);
  };

  const announce = (text: string) => setAnnouncement(text);
  const add = (type: BlockType, target?: BlockTarget) => {
    const at = target ?? insertionPoint(draft.blocks, type, selectedId);
    const block = newBlock(type, newId());
    if (!insertBlock(doc, block, at)) return announce(`A ${BLOCK_LABELS[type]} block cannot go there.`);
    setSelectedId(block.id);
    announce(`${BLOCK_LABELS[type]} added.`);
  };
  const move = (id: string, target: BlockTarget) => {
    const type = placements(draft.blocks).get(id)?.type;
    if (!type) return;
    if (!allowedAt(draft.blocks, type, target) || !moveBlock(doc, id, target))
      return announce(`A ${BLOCK_LABELS[type]} block cannot go there.`);
    announce(`${BLOCK_LABELS[type]} moved.`);
  };

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragStart = ({ active }: DragStartEvent) =>
    setDragLabel(BLOCK_LABELS[(active.data.current as { type: BlockType }).type]);
  const onDragEnd = ({ active, over, activatorEvent }: DragEndEvent) => {
    setDragLabel(null);
    if (!over || readOnly) return;
    const a = active.data.current as { kind: "new" | "block"; type: BlockType };
    const o = over.data.current as
      { kind: "block" } | { kind: "list"; parentId: string | null; slot: number } | undefined;
    if (!o || (a.kind === "block" && over.id === active.id)) return;
    const translated = active.rect.current.translated;
    const after = translated ? translated.top + translated.height / 2 > over.rect.top + over.rect.height / 2 : false;
    const target = dropTarget(
      draft.blocks,
      o.kind === "block"
        ? { kind: "block", id: String(over.id), after, byOrder: activatorEvent instanceof KeyboardEvent }
        : o,
      a.kind === "block" ? String(active.id) : undefined,
    );
    if (!target) return;
    if (a.kind === "new") add(a.type, target);
    else move(String(active.id), target);
  };

  const canvas: CanvasState = {
    List: BlockList,
    blocks: draft.blocks,
    selectedId,
    select: setSelectedId,
    remote,
    readOnly,
    move,
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collision}
      onDragStart={onDragStart}
      onDragEnd={onDragEnd}
      onDragCancel={() => setDragLabel(null)}
    >
      <CanvasContext.Provider value={canvas}>
        <Flex justify="between" align="center" gap="2" wrap="wrap" mb="3">
          <Flex gap="2" align="center" wrap="wrap">
            <UndoRedoButtons undo={undo} testId="email" />
            {campaign && <CampaignStatus status={campaign.status} />}
            {props.unsaved && (
              <Badge color="orange" data-testid="email.unsaved">
                Unsaved changes
              </Badge>
            )}
            {!campaign && <Badge color="gray">New campaign: not saved yet</Badge>}
          </Flex>
          <Flex gap="2" align="center">
            {room && <PresenceAvatars people={others} label="editing" />}
            <Button variant="soft" color="gray" onClick={props.onOpenList} data-testid="email.openList">
              <ListBulletIcon /> Campaigns
            </Button>
          </Flex>
        </Flex>
        <div className="email-builder">
          <Card className="email-builder-left">
            <Flex direction="column" gap="4">
              <Flex direction="column" gap="2">
                <Text size="2" weight="medium" id="email-campaign-picker">
                  Campaign
                </Text>
                <Select.Root value={campaign?.id ?? "new"} onValueChange={props.onPick}>
                  <Select.Trigger aria-labelledby="email-campaign-picker" data-testid="email.picker" />
                  <Select.Content>
                    <Select.Item value="new">New Campaign</Select.Item>
                    {(props.campaigns ?? []).map((c) => (
                      <Select.Item key={c.id} value={c.id}>
                        {c.name} ({c.status})
                      </Select.Item>
                    ))}
                  </Select.Content>
                </Select.Root>
                <label>
                  <Text size="2" weight="medium">
                    Campaign name{" "}
                    <Text color="red" aria-hidden>
                      *
                    </Text>
                  </Text>
                  <CollabTextField
                    value={draft.meta.name}
                    maxLength={200}
                    readOnly={readOnly}
                    onChange={(e) => setEmailMeta(doc, "name", e.target.value)}
                    placeholder="e.g. October newsletter"
                    data-testid="email.name"
                  />
                </label>
                {canManage && (
                  <Flex gap="2">
                    <Button onClick={props.onSave} loading={props.saving} data-testid="email.save">
                      Save
                    </Button>
                    <Button
                      variant="soft"
                      onClick={props.onDuplicate}
                      disabled={props.saving}
                      data-testid="email.duplicate"
                    >
                      Duplicate
                    </Button>
                  </Flex>
                )}
              </Flex>
              {props.left.templates}
              {canManage && <ComponentLibrary onAdd={(t) => add(t)} />}
            </Flex>
          </Card>
          <Box className="email-builder-canvas" onClick={() => setSelectedId(null)} data-testid="email.canvas">
            <Box
              style={{
                width: "100%",
                maxWidth: 600,
                margin: "0 auto",
                background: "white",
                color: "#333",
                boxShadow: "0 1px 4px rgba(0,0,0,.12)",
                fontFamily: "Helvetica, Arial, sans-serif",
              }}
            >
              <BlockList
                blocks={draft.blocks}
                parentId={null}
                parentType={null}
                slot={0}
                label="Email canvas"
                empty={
                  <span data-testid="email.canvas.empty">
                    Drag components here, or choose a template, to start your email.
                  </span>
                }
                style={{ minHeight: 400 }}
              />
            </Box>
          </Box>
          <Card className="email-builder-right">
            <PropertyPanel
              block={selected}
              disabled={readOnly}
              onChange={(patch) => selected && updateBlock(doc, selected.id, patch)}
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
                    what="component"
                    testId="email.deletedNotice"
                    onDismiss={lost.dismiss}
                    onUndo={() => {
                      const id = lost.lost!.id;
                      lost.dismiss();
                      if (restoreBlock(doc, id)) setSelectedId(id);
                    }}
                  />
                )
              }
              onDuplicate={() => {
                if (!selected) return;
                const p = placements(draft.blocks).get(selected.id);
                if (!p) return;
                const copy = cloneBlock(selected, newId);
                if (insertBlock(doc, copy, { parentId: p.parentId, slot: p.slot, index: p.index + 1 }))
                  setSelectedId(copy.id);
              }}
              onUploadImage={(file) => props.onUploadImage(file)}
              conflictNote={
                selected && remote.get(selected.id)?.length ? (
                  <Text size="1" color="orange">
                    {remote
                      .get(selected.id)!
                      .map((t) => t.name)
                      .join(", ")}{" "}
                    also editing this component: both your changes are kept, typing included.
                  </Text>
                ) : undefined
              }
            />
          </Card>
        </div>
        <Card mt="4">
          <SettingsPanel
            doc={doc}
            meta={draft.meta}
            rendered={rendered}
            unknown={unknown}
            readOnly={readOnly}
            onPreview={props.onPreview}
            onTest={props.onTest}
            onHistory={props.onHistory}
            onDelete={props.onDelete}
          />
        </Card>
        <ConfirmDialog
          open={confirmDelete !== null}
          onOpenChange={(o) => !o && setConfirmDelete(null)}
          title={`Delete this ${confirmDelete ? BLOCK_LABELS[confirmDelete.type] : ""} block?`}
          description={
            confirmDelete
              ? `${describeContent(confirmDelete)} Teammates editing it are told, and Undo brings it back.`
              : ""
          }
          onConfirm={() => {
            // still there (a teammate may have deleted it meanwhile)
            const now = confirmDelete && findBlock(readEmailDraft(doc).blocks, confirmDelete.id);
            if (now) remove(now);
            setConfirmDelete(null);
          }}
        />
        <div aria-live="polite" className="rt-sr-only" data-testid="email.announce">
          {announcement}
        </div>
        <DragOverlay dropAnimation={null}>
          {dragLabel && (
            <Badge size="2" style={{ cursor: "grabbing" }}>
              {dragLabel}
            </Badge>
          )}
        </DragOverlay>
      </CanvasContext.Provider>
    </DndContext>
  );
}

const EMPTY_DRAFT: EmailDraft = { meta: emptyMeta(), blocks: [] };

/** The text a block (or anything inside it) holds: what deleting it would take away. */
function textsOf(block: EmailBlock): string[] {
  return allBlocks([block]).flatMap((b) =>
    Object.entries(BLOCK_PROPS[b.type])
      .filter(([, spec]) => spec.kind === "text" || spec.kind === "url")
      .map(([k]) => b.content[k])
      .filter((v): v is string => typeof v === "string" && v.trim() !== "")
      .map((v) => v.trim()),
  );
}

/** Whether deleting a block loses something someone wrote or chose: text, an address, blocks inside it. */
function hasContent(block: EmailBlock): boolean {
  return textsOf(block).length > 0 || allBlocks([block]).length > 1;
}

function describeContent(block: EmailBlock): string {
  const inside = allBlocks([block]).length - 1;
  const first = textsOf(block)[0];
  const quoted = first ? ` with “${first.length > 60 ? `${first.slice(0, 57)}…` : first}”` : "";
  const kids = inside > 0 ? ` and the ${inside} ${inside === 1 ? "block" : "blocks"} inside it` : "";
  return `The ${BLOCK_LABELS[block.type]} block${quoted}${kids} will be removed from the email.`;
}
