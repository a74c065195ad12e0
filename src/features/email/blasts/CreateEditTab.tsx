import { Box, Button, Flex, Text } from "@radix-ui/themes";
import { useEffect, useRef, useState } from "react";
import * as Y from "yjs";
import type { Id } from "@convex/_generated/dataModel";
import { newBlock, normalizeBlocks } from "@convex/lib/email/blocks";
import { emptyMeta, insertBlock, isEmptyEmailDraft, readEmailDraft, type EmailDraft } from "@convex/lib/email/draft";
import { useCollaborativeDoc } from "@/lib/collab/useCollaborativeDoc";
import { useDocValue } from "@/lib/collab/useDocValue";
import { ConnectionNotice } from "@/ui/ConnectionNotice";
import { toast } from "@/ui/toast";
import { newId, type BuilderCampaign } from "../components/EmailBuilder";
import { BuilderShell, type Email } from "./BuilderShell";
import { Loading } from "@/ui/Loading";
import { RecordGone } from "@/ui/RecordGone";
import { useSavedCampaign } from "../hooks/useSavedCampaign";

const EMPTY_DRAFT: EmailDraft = { meta: emptyMeta(), blocks: [] };

type CreateEditTabProps = {
  campaignParam: string;
  email: Email;
  canManage: boolean;
  offlineKey?: string;
  onOpen(id: string): void;
};

/** Create & Edit: the builder (spec/2 §2.3) for `?campaign=new` or `?campaign={id}`, and the coming AI helper. */
export function CreateEditTab({ campaignParam, email, canManage, offlineKey, onOpen }: CreateEditTabProps) {
  return (
    <Box>
      <Flex justify="end" align="center" gap="2" mb="3" wrap="wrap">
        <Text size="1" color="gray" id="email-ai-soon">
          Coming soon
        </Text>
        <Button variant="soft" disabled aria-describedby="email-ai-soon" data-testid="email.generateAi">
          Generate with AI
        </Button>
      </Flex>
      {campaignParam === "new" ? (
        <NewCampaign key="new" email={email} canManage={canManage} onOpen={onOpen} />
      ) : (
        <ExistingCampaign
          key={campaignParam}
          id={campaignParam as Id<"emailCampaigns">}
          email={email}
          canManage={canManage}
          offlineKey={offlineKey}
          onOpen={onOpen}
        />
      )}
    </Box>
  );
}

/** Whether the draft differs from what was last saved (compared as the server stores it). */
function differs(
  draft: EmailDraft,
  saved: {
    name: string;
    subject: string;
    fromName: string;
    fromEmail: string;
    replyTo: string;
    previewText: string;
    blocks: string;
  },
): boolean {
  const m = draft.meta;
  if (
    m.name.trim() !== saved.name ||
    m.subject.trim() !== saved.subject ||
    m.fromName.trim() !== saved.fromName ||
    m.fromEmail.trim() !== saved.fromEmail ||
    m.replyTo.trim() !== saved.replyTo ||
    m.previewText.trim() !== saved.previewText
  )
    return true;
  try {
    return JSON.stringify(normalizeBlocks(draft.blocks)) !== saved.blocks;
  } catch {
    return true;
  }
}

/** New Campaign: the design lives in this browser until Save creates the campaign (and its shared draft). */
function NewCampaign({ email, canManage, onOpen }: { email: Email; canManage: boolean; onOpen: (id: string) => void }) {
  const [doc] = useState(() => new Y.Doc());
  const [templateId, setTemplateId] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const save = async (duplicate: boolean) => {
    setSaving(true);
    const draft = readEmailDraft(doc);
    const id = await email.create(
      duplicate ? { ...draft, meta: { ...draft.meta, name: `${draft.meta.name} (Copy)` } } : draft,
      { templateId, duplicate },
    );
    setSaving(false);
    if (id) onOpen(id);
  };
  return (
    <BuilderShell
      doc={doc}
      awareness={null}
      room={null}
      campaign={null}
      email={email}
      canManage={canManage}
      saving={saving}
      unsaved={false}
      onSave={() => void save(false)}
      onDuplicate={() => void save(true)}
      onOpen={onOpen}
      onTemplate={setTemplateId}
    />
  );
}

/** An existing campaign: the co-edited draft "emailCampaign:<id>"; Save publishes it. */
function ExistingCampaign({
  id,
  email,
  canManage,
  offlineKey,
  onOpen,
}: {
  id: Id<"emailCampaigns">;
  email: Email;
  canManage: boolean;
  offlineKey?: string;
  onOpen: (id: string) => void;
}) {
  const { saved } = useSavedCampaign(id);
  const room = `emailCampaign:${id}`;
  const { doc, status, awareness } = useCollaborativeDoc(saved ? room : null, {
    offlineKey,
    onError: (e) => toast.failure("Error loading campaign", e),
  });
  const draft = useDocValue(doc, readEmailDraft, EMPTY_DRAFT);
  const [saving, setSaving] = useState(false);
  // a loaded message without a footer gets one at its end (spec/2 §2.3), once, by an editor
  const footerChecked = useRef(false);
  useEffect(() => {
    if (footerChecked.current || !doc || status !== "synced" || !canManage) return;
    footerChecked.current = true;
    const blocks = readEmailDraft(doc).blocks;
    if (blocks.length > 0 && !blocks.some((b) => b.type === "footer")) {
      insertBlock(doc, newBlock("footer", newId()), { parentId: null, slot: 0, index: blocks.length });
    }
  }, [doc, status, canManage]);
  if (saved === null) {
    return (
      <RecordGone
        what="campaign"
        testId="email.gone"
        action={
          <Button variant="soft" onClick={() => onOpen("new")} mt="2">
            New Campaign
          </Button>
        }
      />
    );
  }
  if (saved === undefined || !doc || (status === "connecting" && isEmptyEmailDraft(doc))) return <Loading />;
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
    <>
      <ConnectionNotice status={status} />
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
    </>
  );
}
