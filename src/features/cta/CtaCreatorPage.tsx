import { Box, Button, Dialog, Flex, Select, Text, TextField } from "@radix-ui/themes";
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import * as Y from "yjs";
import type { Id } from "@convex/_generated/dataModel";
import { DEFAULT_CATEGORY, normalizeDesign, TEMPLATE_CATEGORIES, type CtaDesign } from "@convex/lib/cta/design";
import { isEmptyCtaDoc, readCtaDoc, writeCtaDoc } from "@convex/lib/cta/draft";
import { BUILT_IN_CTA_TEMPLATES } from "@convex/lib/cta/templates";
import { useCollaborativeDoc } from "@/lib/collab/useCollaborativeDoc";
import { useDocValue } from "@/lib/collab/useDocValue";
import { useViewer } from "@/session/ViewerProvider";
import { ConnectionNotice } from "@/ui/ConnectionNotice";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { PageHeader } from "@/ui/PageHeader";
import { toast } from "@/ui/toast";
import { useImageUpload } from "@/ui/useImageUpload";
import type { Awareness } from "y-protocols/awareness";
import { CtaCreator, EMPTY_DESIGN, newElementId, type CreatorMode } from "./components/CtaCreator";
import { CtaLeftPanel, type PickedCtaTemplate } from "./components/CtaLeftPanel";
import { CtaPreview } from "./components/CtaPreview";
import { EmbedCtaDialog } from "./components/EmbedCtaDialog";
import { useCtas, type CtaTemplateRow } from "./hooks/useCtas";
import { ROUTES } from "@/lib/routes";
import { Loading } from "@/ui/Loading";
import { NoPermission } from "@/ui/NoPermission";
import { RecordGone } from "@/ui/RecordGone";
import { TEXTS } from "@convex/lib/texts";
import { useSavedCta } from "./hooks/useSavedCta";

/** A fresh design from a template: its content with new element ids, keeping the current name and description. */
function fromTemplate(current: CtaDesign, t: PickedCtaTemplate): CtaDesign {
  const base = t.builtIn
    ? BUILT_IN_CTA_TEMPLATES.find((b) => b.id === t.id)!.design
    : normalizeDesign(JSON.parse(t.design ?? "{}"));
  return {
    ...base,
    name: current.name || base.name,
    description: current.description || base.description,
    elements: base.elements.map((e) => ({ ...e, id: newElementId() })),
  };
}

/** /cta-creator: a new CTA, a saved one (`?cta={id}`, co-edited) or a custom template (`?template={id}`, super admins). */
export function CtaCreatorPage() {
  const { can, me } = useViewer();
  const [params, setParams] = useSearchParams();
  const ctaId = params.get("cta");
  const templateId = params.get("template");
  const ctas = useCtas();
  const open = (next: Record<string, string | null>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(next)) if (v) p.set(k, v);
    setParams(p);
  };
  const superAdmin = !!me && "activeRole" in me && me.activeRole === "super_admin" && !me.impersonatedRole;
  return (
    <Box>
      <PageHeader
        title="CTA Creator"
        description="Design call-to-action graphics together and embed them on any website."
        breadcrumbs={[
          { label: "Dashboard", to: ROUTES.dashboard },
          { label: "CTA Database", to: ROUTES.ctaDatabase },
          { label: "CTA Creator" },
        ]}
      />
      {!can("campaigns.view") ? (
        <NoPermission />
      ) : ctaId ? (
        <SavedCta
          key={ctaId}
          id={ctaId as Id<"ctas">}
          ctas={ctas}
          canManage={can("campaigns.manage")}
          superAdmin={superAdmin}
          offlineKey={me?.userId}
          open={open}
        />
      ) : templateId && superAdmin ? (
        <TemplateEditor
          key={templateId}
          template={ctas.templates?.find((t) => t.id === templateId) ?? null}
          loading={ctas.templates === undefined}
          ctas={ctas}
          open={open}
        />
      ) : (
        <NewCta key="new" ctas={ctas} canManage={can("campaigns.manage")} superAdmin={superAdmin} open={open} />
      )}
    </Box>
  );
}

type Ctas = ReturnType<typeof useCtas>;
type Open = (next: Record<string, string | null>) => void;

function NewCta({
  ctas,
  canManage,
  superAdmin,
  open,
}: {
  ctas: Ctas;
  canManage: boolean;
  superAdmin: boolean;
  open: Open;
}) {
  const [doc] = useState(() => {
    const d = new Y.Doc();
    writeCtaDoc(d, EMPTY_DESIGN);
    return d;
  });
  const design = useDocValue(doc, readCtaDoc, EMPTY_DESIGN);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    const id = await ctas.create(readCtaDoc(doc));
    setSaving(false);
    if (id) open({ cta: id });
  };
  return (
    <Shell
      doc={doc}
      awareness={null}
      room={null}
      mode="new"
      ctas={ctas}
      readOnly={!canManage}
      superAdmin={superAdmin}
      saving={saving}
      unsaved={design.elements.length > 0 || design.name.trim() !== ""}
      saveLabel="Save CTA"
      onSave={() => void save()}
      ctaId={null}
      open={open}
    />
  );
}

function SavedCta({
  id,
  ctas,
  canManage,
  superAdmin,
  offlineKey,
  open,
}: {
  id: Id<"ctas">;
  ctas: Ctas;
  canManage: boolean;
  superAdmin: boolean;
  offlineKey?: string;
  open: Open;
}) {
  const { saved } = useSavedCta(id);
  const room = `cta:${id}`;
  const { doc, status, awareness } = useCollaborativeDoc(saved ? room : null, {
    offlineKey,
    onError: (e) => toast.failure("Error loading CTA", e),
  });
  const design = useDocValue(doc, readCtaDoc, EMPTY_DESIGN);
  const [saving, setSaving] = useState(false);
  if (saved === null) {
    return (
      <RecordGone
        what="CTA"
        testId="cta.gone"
        action={
          <Button variant="soft" mt="2" onClick={() => open({})}>
            Create a new CTA
          </Button>
        }
      />
    );
  }
  if (saved === undefined || !doc || (status === "connecting" && isEmptyCtaDoc(doc))) return <Loading />;
  let unsaved = true;
  try {
    unsaved = JSON.stringify(normalizeDesign(design)) !== saved.design;
  } catch {
    /* a design that cannot be saved as it is counts as unsaved */
  }
  const save = async () => {
    setSaving(true);
    await ctas.save(id, readCtaDoc(doc));
    setSaving(false);
  };
  return (
    <>
      <ConnectionNotice status={status} />
      <Shell
        doc={doc}
        awareness={awareness}
        room={room}
        mode="cta"
        ctas={ctas}
        readOnly={!canManage}
        superAdmin={superAdmin}
        saving={saving}
        unsaved={unsaved}
        saveLabel="Update CTA"
        onSave={() => void save()}
        ctaId={id}
        open={open}
      />
    </>
  );
}

function TemplateEditor({
  template,
  loading,
  ctas,
  open,
}: {
  template: CtaTemplateRow | null;
  loading: boolean;
  ctas: Ctas;
  open: Open;
}) {
  if (loading) return <Loading />;
  if (!template) return <RecordGone what="template" byTeammate={false} />;
  return <TemplateDoc template={template} ctas={ctas} open={open} />;
}

/** Editing a custom template: a design in this browser until Save Template stores it (name and category asked). */
function TemplateDoc({ template, ctas, open }: { template: CtaTemplateRow; ctas: Ctas; open: Open }) {
  const [doc] = useState(() => {
    const d = new Y.Doc();
    writeCtaDoc(d, { ...normalizeDesign(JSON.parse(template.design)), name: template.name });
    return d;
  });
  // the version this editor started from (then its own last save): a teammate's later save is refused, not overwritten
  const [base, setBase] = useState(template.updatedAt);
  return (
    <Shell
      doc={doc}
      awareness={null}
      room={null}
      mode="template"
      ctas={ctas}
      readOnly={false}
      superAdmin
      saving={false}
      unsaved={false}
      saveLabel="Save Template"
      onSave={null}
      ctaId={null}
      open={open}
      editingTemplate={{ ...template, updatedAt: base }}
      onTemplateSaved={setBase}
    />
  );
}

type ShellProps = {
  doc: Y.Doc;
  awareness: Awareness | null;
  room: string | null;
  mode: CreatorMode;
  ctas: Ctas;
  readOnly: boolean;
  superAdmin: boolean;
  saving: boolean;
  unsaved: boolean;
  saveLabel: string;
  /** null: the save button opens the template dialog */
  onSave: (() => void) | null;
  ctaId: Id<"ctas"> | null;
  open: Open;
  editingTemplate?: CtaTemplateRow;
  onTemplateSaved?: (updatedAt: number) => void;
};

/** The creator with its left panel, toolbar actions and modals. */
function Shell({
  doc,
  awareness,
  room,
  mode,
  ctas,
  readOnly,
  superAdmin,
  saving,
  unsaved,
  saveLabel,
  onSave,
  ctaId,
  open,
  editingTemplate,
  onTemplateSaved,
}: ShellProps) {
  const design = useDocValue(doc, readCtaDoc, EMPTY_DESIGN);
  const { me } = useViewer();
  const [dialog, setDialog] = useState<null | "preview" | "embed" | "template">(null);
  const [deleting, setDeleting] = useState<CtaTemplateRow | null>(null);
  const upload = useImageUpload("cta", "Upload Failed");

  const toolbar = (
    <>
      {!readOnly && (
        <Button onClick={() => (onSave ? onSave() : setDialog("template"))} loading={saving} data-testid="cta.save">
          {saveLabel}
        </Button>
      )}
      {superAdmin && mode !== "template" && !readOnly && (
        <Button
          variant="soft"
          disabled={design.elements.length === 0}
          onClick={() => setDialog("template")}
          data-testid="cta.saveTemplate"
        >
          Save Template
        </Button>
      )}
      <Button variant="soft" color="gray" onClick={() => setDialog("preview")} data-testid="cta.previewButton">
        Preview
      </Button>
      <Button
        variant="soft"
        color="gray"
        disabled={!ctaId}
        onClick={() => setDialog("embed")}
        data-testid="cta.getCode"
      >
        Get Code
      </Button>
    </>
  );

  return (
    <>
      <CtaCreator
        doc={doc}
        awareness={awareness}
        room={room}
        mode={mode}
        readOnly={readOnly}
        saving={saving}
        unsaved={unsaved}
        toolbar={toolbar}
        onUpload={upload}
        left={({ add, brandColor }) => (
          <CtaLeftPanel
            custom={ctas.templates}
            superAdmin={superAdmin}
            readOnly={readOnly}
            onTemplate={(t) => {
              writeCtaDoc(doc, fromTemplate(readCtaDoc(doc), t), me?.name ?? "");
              toast.success("Template loaded", { description: t.name });
            }}
            onEditTemplate={(t) => open({ template: t.id })}
            onDeleteTemplate={setDeleting}
            onAdd={add}
            onBrandColor={brandColor}
          />
        )}
      />
      {dialog === "preview" && (
        <Dialog.Root open onOpenChange={(o) => !o && setDialog(null)}>
          <Dialog.Content maxWidth="min(1280px, 95vw)" data-testid="cta.previewDialog">
            <Dialog.Title>Preview</Dialog.Title>
            <Dialog.Description size="2" color="gray">
              {design.name || "Untitled CTA"} · {design.width} × {design.height}
            </Dialog.Description>
            <Flex justify="center" mt="3" style={{ overflowX: "auto" }}>
              <CtaPreview design={design} maxWidth={1180} label={`Preview of ${design.name || "the CTA"}`} />
            </Flex>
            <Flex justify="end" mt="3">
              <Dialog.Close>
                <Button variant="soft" color="gray">
                  Close
                </Button>
              </Dialog.Close>
            </Flex>
          </Dialog.Content>
        </Dialog.Root>
      )}
      {dialog === "embed" && ctaId && (
        <EmbedCtaDialog
          id={ctaId}
          name={design.name}
          width={design.width}
          height={design.height}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === "template" && (
        <SaveTemplateDialog
          initial={{
            name: editingTemplate?.name ?? design.name,
            category: editingTemplate?.category ?? DEFAULT_CATEGORY,
          }}
          onClose={() => setDialog(null)}
          onSave={async (name, category) => {
            const saved = await ctas.saveTemplate(
              {
                base: editingTemplate && { id: editingTemplate.id, updatedAt: editingTemplate.updatedAt },
                name,
                category,
              },
              readCtaDoc(doc),
            );
            if (!saved) return;
            if (saved.updatedAt !== null) onTemplateSaved?.(saved.updatedAt);
            setDialog(null);
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete Template"
        description={`Are you sure you want to delete the template "${deleting?.name ?? ""}"? It is removed for every organization.`}
        onConfirm={() => {
          if (deleting) void ctas.removeTemplate(deleting.id);
          setDeleting(null);
        }}
      />
    </>
  );
}

function SaveTemplateDialog({
  initial,
  onClose,
  onSave,
}: {
  initial: { name: string; category: string };
  onClose: () => void;
  onSave: (name: string, category: string) => Promise<void>;
}) {
  const [name, setName] = useState(initial.name);
  const [category, setCategory] = useState(initial.category);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!name.trim()) {
      toast.error("Template Name Required", { description: TEXTS.required.templateName });
      return;
    }
    setBusy(true);
    await onSave(name, category);
    setBusy(false);
  };
  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="420px" data-testid="cta.templateDialog">
        <Dialog.Title>Save as Template</Dialog.Title>
        <Dialog.Description size="2" color="gray">
          Templates are available to every organization.
        </Dialog.Description>
        <Flex direction="column" gap="3" mt="2">
          <label>
            <Text size="2" weight="medium">
              Template name
            </Text>
            <TextField.Root
              value={name}
              maxLength={120}
              onChange={(e) => setName(e.target.value)}
              data-testid="cta.templateName"
            />
          </label>
          <Flex direction="column">
            <Text size="2" weight="medium" id="cta-template-category">
              Category
            </Text>
            <Select.Root value={category} onValueChange={setCategory}>
              <Select.Trigger aria-labelledby="cta-template-category" data-testid="cta.templateCategory" />
              <Select.Content>
                {TEMPLATE_CATEGORIES.map((c) => (
                  <Select.Item key={c} value={c}>
                    {c}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </Flex>
        </Flex>
        <Flex justify="end" gap="2" mt="4">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button loading={busy} onClick={() => void submit()} data-testid="cta.templateSave">
            Save Template
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
