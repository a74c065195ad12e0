import { Box, Button, Callout, Flex, Spinner } from "@radix-ui/themes";
import { useConvex, useQuery } from "convex/react";
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import * as Y from "yjs";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { normalizeBlocks, withFooter } from "@convex/lib/email/blocks";
import { cloneBlock, emptyMeta, isEmptyEmailDraft, readEmailDraft, writeEmailDraft, type EmailDraft } from "@convex/lib/email/draft";
import { useCollaborativeDoc } from "@/lib/collab/useCollaborativeDoc";
import { useDocValue } from "@/lib/collab/useDocValue";
import { useViewer } from "@/session/ViewerProvider";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { PageHeader } from "@/ui/PageHeader";
import { toast } from "@/ui/toast";
import type { Awareness } from "y-protocols/awareness";
import { CampaignListPanel } from "./components/CampaignListPanel";
import { EmailBuilder, newId, type BuilderCampaign } from "./components/EmailBuilder";
import { PreviewDialog, SaveTemplateDialog, TestEmailDialog, VersionHistoryDialog } from "./components/EmailDialogs";
import { TemplatePicker, type PickedTemplate } from "./components/TemplatePicker";
import { useEmailCampaigns } from "./hooks/useEmailCampaigns";
import { useRenderedEmail } from "./hooks/useRenderedEmail";

const EMPTY_DRAFT: EmailDraft = { meta: emptyMeta(), blocks: [] };

/** Whether the draft differs from what was last saved (compared as the server stores it). */
function differs(draft: EmailDraft, saved: { name: string; subject: string; fromName: string; fromEmail: string; replyTo: string; previewText: string; blocks: string }): boolean {
  const m = draft.meta;
  if (m.name.trim() !== saved.name || m.subject.trim() !== saved.subject || m.fromName.trim() !== saved.fromName || m.fromEmail.trim() !== saved.fromEmail || m.replyTo.trim() !== saved.replyTo || m.previewText.trim() !== saved.previewText) return true;
  try {
    return JSON.stringify(normalizeBlocks(draft.blocks)) !== saved.blocks;
  } catch {
    return true;
  }
}

/** /email: the email area. Create & Edit is the builder: `?campaign=new` or `?campaign={id}`. */
export function EmailPage() {
  const { can, me } = useViewer();
  const [params, setParams] = useSearchParams();
  const campaignParam = params.get("campaign") ?? "new";
  const email = useEmailCampaigns();

  const open = (id: string) => {
    const next = new URLSearchParams(params);
    next.set("tab", "create-and-edit");
    next.set("campaign", id);
    setParams(next);
  };

  return (
    <Box>
      <PageHeader title="Email" description="Design email campaigns together: templates, components, preview and test sends." breadcrumbs={[{ label: "Dashboard", to: "/dashboard" }, { label: "Email" }]} />
      {!can("campaigns.view") ? (
        <Callout.Root color="red"><Callout.Text>You do not have permission to perform this action.</Callout.Text></Callout.Root>
      ) : campaignParam === "new" ? (
        <NewCampaign key="new" email={email} canManage={can("campaigns.manage")} onOpen={open} />
      ) : (
        <ExistingCampaign key={campaignParam} id={campaignParam as Id<"emailCampaigns">} email={email} canManage={can("campaigns.manage")} offlineKey={me?.userId} onOpen={open} />
      )}
    </Box>
  );
}

type Email = ReturnType<typeof useEmailCampaigns>;

/** New Campaign: the design lives in this browser until Save creates the campaign (and its shared draft). */
function NewCampaign({ email, canManage, onOpen }: { email: Email; canManage: boolean; onOpen: (id: string) => void }) {
  const [doc] = useState(() => new Y.Doc());
  const [templateId, setTemplateId] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const save = async (duplicate: boolean) => {
    setSaving(true);
    const draft = readEmailDraft(doc);
    const id = await email.create(duplicate ? { ...draft, meta: { ...draft.meta, name: `${draft.meta.name} (Copy)` } } : draft, { templateId, duplicate });
    setSaving(false);
    if (id) onOpen(id);
  };
  return <BuilderShell doc={doc} awareness={null} room={null} campaign={null} email={email} canManage={canManage} saving={saving} unsaved={false} onSave={() => void save(false)} onDuplicate={() => void save(true)} onOpen={onOpen} onTemplate={setTemplateId} />;
}

/** An existing campaign: the co-edited draft "emailCampaign:<id>"; Save publishes it. */
function ExistingCampaign({ id, email, canManage, offlineKey, onOpen }: { id: Id<"emailCampaigns">; email: Email; canManage: boolean; offlineKey?: string; onOpen: (id: string) => void }) {
  const saved = useQuery(api.emailCampaigns.get, { id });
  const room = `emailCampaign:${id}`;
  const { doc, status, awareness } = useCollaborativeDoc(saved ? room : null, { offlineKey, onError: (e) => toast.error("Error loading campaign", { description: e.message }) });
  const draft = useDocValue(doc, readEmailDraft, EMPTY_DRAFT);
  const [saving, setSaving] = useState(false);
  if (saved === null) {
    return (
      <Callout.Root color="orange" data-testid="email.gone">
        <Callout.Text>This campaign no longer exists. It may have been deleted by a teammate.</Callout.Text>
        <Button variant="soft" onClick={() => onOpen("new")} mt="2">New Campaign</Button>
      </Callout.Root>
    );
  }
  if (saved === undefined || !doc || (status === "connecting" && isEmptyEmailDraft(doc))) return <Flex justify="center" p="6"><Spinner size="3" /></Flex>;
  const save = async () => {
    setSaving(true);
    await email.save(id, readEmailDraft(doc));
    setSaving(false);
  };
  const duplicate = async () => {
    setSaving(true);
    const d = readEmailDraft(doc);
    const copy = await email.create({ ...d, meta: { ...d.meta, name: `${d.meta.name} (Copy)` } }, { duplicate: true });
    setSaving(false);
    if (copy) onOpen(copy);
  };
  const campaign: BuilderCampaign = { id, name: saved.name, status: saved.status, version: saved.version };
  return (
    <BuilderShell
      doc={doc}
      awareness={awareness}
      room={room}
      campaign={campaign}
      email={email}
      canManage={canManage}
      saving={saving}
      unsaved={differs(draft, saved)}
      onSave={() => void save()}
      onDuplicate={() => void duplicate()}
      onOpen={onOpen}
    />
  );
}

type ShellProps = {
  doc: Y.Doc;
  awareness: Awareness | null;
  room: string | null;
  campaign: BuilderCampaign;
  email: Email;
  canManage: boolean;
  saving: boolean;
  unsaved: boolean;
  onSave: () => void;
  onDuplicate: () => void;
  onOpen: (id: string) => void;
  onTemplate?: (id: string) => void;
};

/** The builder with its panels and dialogs. */
function BuilderShell({ doc, awareness, room, campaign, email, canManage, saving, unsaved, onSave, onDuplicate, onOpen, onTemplate }: ShellProps) {
  const convex = useConvex();
  const [dialog, setDialog] = useState<null | "list" | "preview" | "test" | "history" | "saveTemplate" | "delete">(null);
  const [templateToDelete, setTemplateToDelete] = useState<{ id: Id<"emailTemplates">; name: string } | null>(null);
  const draftNow = () => readEmailDraft(doc);
  const [previewDraft, setPreviewDraft] = useState<EmailDraft | null>(null);
  const rendered = useRenderedEmail(dialog === "preview" && previewDraft ? previewDraft.blocks : null, { title: previewDraft?.meta.subject ?? "", previewText: previewDraft?.meta.previewText ?? "", delayMs: 0, exact: true });

  const loadTemplate = (t: PickedTemplate) => {
    const blocks = withFooter(t.blocks.map((b) => cloneBlock(b, newId)), newId);
    writeEmailDraft(doc, { blocks, ...(draftNow().meta.name ? {} : { meta: { name: t.name } }) });
    onTemplate?.(t.id);
    toast.success("Template loaded", { description: t.name });
  };
  const restore = async (version: number) => {
    if (!campaign) return;
    try {
      const v = await convex.query(api.emailCampaigns.version, { id: campaign.id as Id<"emailCampaigns">, version });
      const { blocks, version: _n, ...meta } = v;
      writeEmailDraft(doc, { meta, blocks: withFooter(normalizeBlocks(JSON.parse(blocks)), newId) });
      toast.success(`Version ${version} restored`, { description: "Save to publish it as a new version." });
      setDialog(null);
    } catch (e) {
      toast.failure("Error loading campaign", e);
    }
  };

  return (
    <>
      <EmailBuilder
        doc={doc}
        awareness={awareness}
        room={room}
        campaign={campaign}
        campaigns={email.campaigns?.map((c) => ({ id: c.id, name: c.name, status: c.status }))}
        canManage={canManage}
        saving={saving}
        unsaved={unsaved}
        left={{
          templates: (
            <TemplatePicker
              stored={email.templates}
              canManage={canManage}
              onLoad={loadTemplate}
              onDelete={(id, name) => setTemplateToDelete({ id, name })}
              onSaveAs={() => setDialog("saveTemplate")}
            />
          ),
        }}
        onPick={onOpen}
        onSave={onSave}
        onDuplicate={onDuplicate}
        onOpenList={() => setDialog("list")}
        onPreview={() => {
          setPreviewDraft(draftNow());
          setDialog("preview");
        }}
        onTest={() => setDialog("test")}
        onHistory={campaign ? () => setDialog("history") : null}
        onDelete={campaign ? () => setDialog("delete") : null}
        onUploadImage={(file) => email.uploadImage(file)}
      />
      <CampaignListPanel open={dialog === "list"} onOpenChange={(o) => setDialog(o ? "list" : null)} campaigns={email.campaigns} currentId={campaign?.id ?? null} onOpen={(id) => { setDialog(null); onOpen(id); }} />
      <PreviewDialog open={dialog === "preview"} onOpenChange={(o) => setDialog(o ? "preview" : null)} rendered={rendered} subject={previewDraft?.meta.subject ?? ""} />
      <TestEmailDialog open={dialog === "test"} onOpenChange={(o) => setDialog(o ? "test" : null)} onSend={(r) => email.sendTest(r, draftNow())} />
      {campaign && <VersionHistoryDialog open={dialog === "history"} onOpenChange={(o) => setDialog(o ? "history" : null)} campaignId={campaign.id as Id<"emailCampaigns">} current={campaign.version} onRestore={restore} />}
      <SaveTemplateDialog open={dialog === "saveTemplate"} onOpenChange={(o) => setDialog(o ? "saveTemplate" : null)} onSave={(name) => email.saveTemplate(name, draftNow().blocks)} />
      <ConfirmDialog
        open={templateToDelete !== null}
        onOpenChange={(o) => !o && setTemplateToDelete(null)}
        title="Delete template"
        description="Are you sure you want to delete this template? This action cannot be undone."
        onConfirm={() => {
          if (templateToDelete) void email.removeTemplate(templateToDelete.id);
          setTemplateToDelete(null);
        }}
      />
      <ConfirmDialog
        open={dialog === "delete"}
        onOpenChange={(o) => setDialog(o ? "delete" : null)}
        title="Delete message"
        description={`Are you sure you want to delete "${campaign?.name ?? ""}"? This action cannot be undone.`}
        onConfirm={() => {
          setDialog(null);
          if (campaign) void email.remove(campaign.id as Id<"emailCampaigns">).then(() => onOpen("new"));
        }}
      />
    </>
  );
}
