import { useAction, useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { EmailBlock } from "@convex/lib/email/blocks";
import type { EmailDraft } from "@convex/lib/email/draft";
import { toast } from "@/ui/toast";
import { useImageUpload } from "@/ui/useImageUpload";
import { TEXTS } from "@convex/lib/texts";

export type EmailCampaignRow = (typeof api.emailCampaigns.list)["_returnType"][number];
export type StoredTemplate = (typeof api.emailTemplates.list)["_returnType"][number];

/** The builder's save rules, checked in the browser first (the server checks them again). */
function saveProblem(draft: EmailDraft): string | null {
  if (!draft.meta.name.trim()) return TEXTS.titles.campaignNameRequired;
  if (draft.blocks.length === 0) return TEXTS.titles.addContent;
  return null;
}

const SAVE_DESCRIPTIONS: Record<string, string> = {
  [TEXTS.titles.campaignNameRequired]: TEXTS.required.campaignName,
  [TEXTS.titles.addContent]: TEXTS.email.noComponents,
};

function settingsOf(draft: EmailDraft) {
  const { name, subject, fromName, fromEmail, replyTo, previewText } = draft.meta;
  return { name, subject, fromName, fromEmail, replyTo, previewText, blocks: JSON.stringify(draft.blocks) };
}

/** The organisation's email campaigns and templates, live, and what the builder does with them (toasts in the spec's words). */
export function useEmailCampaigns() {
  const campaigns = useQuery(api.emailCampaigns.list, {});
  const templates = useQuery(api.emailTemplates.list, {});
  const createCampaign = useMutation(api.emailCampaigns.create);
  const saveCampaign = useMutation(api.emailCampaigns.save);
  const removeCampaign = useMutation(api.emailCampaigns.remove);
  const createTemplate = useMutation(api.emailTemplates.create);
  const removeTemplate = useMutation(api.emailTemplates.remove);
  const uploadImage = useImageUpload("email", "Upload failed");
  const sendTestAction = useAction(api.emailTest.sendTest);

  const refused = (draft: EmailDraft) => {
    const problem = saveProblem(draft);
    if (problem) toast.error(problem, { description: SAVE_DESCRIPTIONS[problem] });
    return problem !== null;
  };

  return {
    campaigns,
    templates,
    /** New Campaign's first Save, or Duplicate: the new campaign's id, or null when refused */
    async create(
      draft: EmailDraft,
      opts: { templateId?: string; duplicate?: boolean } = {},
    ): Promise<Id<"emailCampaigns"> | null> {
      if (refused(draft)) return null;
      try {
        const id = await createCampaign({ ...settingsOf(draft), templateId: opts.templateId });
        toast.success(opts.duplicate ? "Campaign duplicated" : "Campaign created");
        return id;
      } catch (e) {
        toast.failure(opts.duplicate ? "Duplication failed" : "Save failed", e);
        return null;
      }
    },
    async save(id: Id<"emailCampaigns">, draft: EmailDraft): Promise<boolean> {
      if (refused(draft)) return false;
      try {
        await saveCampaign({ id, ...settingsOf(draft) });
        toast.success("Campaign updated");
        return true;
      } catch (e) {
        toast.failure("Save failed", e);
        return false;
      }
    },
    async remove(id: Id<"emailCampaigns">) {
      try {
        await removeCampaign({ id });
        toast.success("Message deleted");
      } catch (e) {
        toast.failure("Error deleting message", e);
      }
    },
    async saveTemplate(name: string, blocks: EmailBlock[]): Promise<boolean> {
      try {
        await createTemplate({ name, blocks: JSON.stringify(blocks) });
        toast.success("Template saved");
        return true;
      } catch (e) {
        toast.failure("Save failed", e);
        return false;
      }
    },
    async removeTemplate(id: Id<"emailTemplates">) {
      try {
        await removeTemplate({ id });
        toast.success("Template deleted");
      } catch (e) {
        toast.failure("Delete failed", e);
      }
    },
    /** Uploads an image for an image or hero block: its public URL, or null (with the spec's message). */
    uploadImage,
    /** Send test email: true when the provider (or demo mode) took every message. */
    async sendTest(recipients: string, draft: EmailDraft): Promise<boolean> {
      const { name: _name, ...settings } = settingsOf(draft);
      try {
        const r = await sendTestAction({ recipients, ...settings });
        if (r.message) {
          if (r.sent > 0)
            toast.warning("Some test emails were not sent", {
              description: `${r.sent} sent, ${r.failed} failed: ${r.message}`,
            });
          else toast.error("Failed to send test email", { description: r.message });
          return false;
        }
        if (r.demo)
          toast.info("DEMO MODE", {
            description: "Email preview generated. Configure RESEND_API_KEY and EMAIL_FROM to send actual emails.",
            duration: 8000,
          });
        else
          toast.success("Test email sent", {
            description: `Sent to ${r.sent + r.pending} ${r.sent + r.pending === 1 ? "address" : "addresses"}.`,
          });
        return true;
      } catch (e) {
        toast.failure("Failed to send test email", e);
        return false;
      }
    },
  };
}
