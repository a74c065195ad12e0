import { useState } from "react";
import type * as Y from "yjs";
import type { Awareness } from "y-protocols/awareness";
import type { Id } from "@convex/_generated/dataModel";
import { normalizeBlocks, withFooter } from "@convex/lib/email/blocks";
import { cloneBlock, readEmailDraft, writeEmailDraft, type EmailDraft } from "@convex/lib/email/draft";
import { useViewer } from "@/session/ViewerProvider";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { toast } from "@/ui/toast";
import { CampaignListPanel } from "../components/CampaignListPanel";
import { EmailBuilder, newId, type BuilderCampaign } from "../components/EmailBuilder";
import { PreviewDialog, SaveTemplateDialog, TestEmailDialog, VersionHistoryDialog } from "../components/EmailDialogs";
import { TemplatePicker, type PickedTemplate } from "../components/TemplatePicker";
import { useRenderedEmail } from "../hooks/useRenderedEmail";
import type { useEmailCampaigns } from "../hooks/useEmailCampaigns";
import { useVersionLoader } from "../hooks/useCampaignVersions";

export type Email = ReturnType<typeof useEmailCampaigns>;

export type ShellProps = {
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
export function BuilderShell({
  doc,
  awareness,
  room,
  campaign,
  email,
  canManage,
  saving,
  unsaved,
  onSave,
  onDuplicate,
  onOpen,
  onTemplate,
}: ShellProps) {
  const { loadVersion } = useVersionLoader();
  const { me } = useViewer();
  const [dialog, setDialog] = useState<null | "list" | "preview" | "test" | "history" | "saveTemplate" | "delete">(
    null,
  );
  const [templateToDelete, setTemplateToDelete] = useState<{ id: Id<"emailTemplates">; name: string } | null>(null);
  const draftNow = () => readEmailDraft(doc);
  const [previewDraft, setPreviewDraft] = useState<EmailDraft | null>(null);
  const rendered = useRenderedEmail(dialog === "preview" && previewDraft ? previewDraft.blocks : null, {
    title: previewDraft?.meta.subject ?? "",
    previewText: previewDraft?.meta.previewText ?? "",
    delayMs: 0,
    exact: true,
  });

  const loadTemplate = (t: PickedTemplate) => {
    const blocks = withFooter(
      t.blocks.map((b) => cloneBlock(b, newId)),
      newId,
    );
    writeEmailDraft(doc, { blocks, ...(draftNow().meta.name ? {} : { meta: { name: t.name } }) }, me?.name ?? "");
    onTemplate?.(t.id);
    toast.success("Template loaded", { description: t.name });
  };
  const restore = async (version: number) => {
    if (!campaign) return;
    try {
      const v = await loadVersion(campaign.id as Id<"emailCampaigns">, version);
      const { blocks, version: _n, ...meta } = v;
      writeEmailDraft(doc, { meta, blocks: withFooter(normalizeBlocks(JSON.parse(blocks)), newId) }, me?.name ?? "");
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
      <CampaignListPanel
        open={dialog === "list"}
        onOpenChange={(o) => setDialog(o ? "list" : null)}
        campaigns={email.campaigns}
        currentId={campaign?.id ?? null}
        onOpen={(id) => {
          setDialog(null);
          onOpen(id);
        }}
      />
      <PreviewDialog
        open={dialog === "preview"}
        onOpenChange={(o) => setDialog(o ? "preview" : null)}
        rendered={rendered}
        subject={previewDraft?.meta.subject ?? ""}
      />
      <TestEmailDialog
        open={dialog === "test"}
        onOpenChange={(o) => setDialog(o ? "test" : null)}
        onSend={(r) => email.sendTest(r, draftNow())}
      />
      {campaign && (
        <VersionHistoryDialog
          open={dialog === "history"}
          onOpenChange={(o) => setDialog(o ? "history" : null)}
          campaignId={campaign.id as Id<"emailCampaigns">}
          current={campaign.version}
          onRestore={restore}
        />
      )}
      <SaveTemplateDialog
        open={dialog === "saveTemplate"}
        onOpenChange={(o) => setDialog(o ? "saveTemplate" : null)}
        onSave={(name) => email.saveTemplate(name, draftNow().blocks)}
      />
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
