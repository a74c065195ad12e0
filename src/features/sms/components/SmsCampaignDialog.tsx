import { Button, Dialog, Flex, Heading, Separator, Text, TextArea, TextField } from "@radix-ui/themes";
import { useMemo } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { editsOf, type StoredValue } from "@/lib/records/mergeForm";
import { useMergedForm } from "@/lib/records/useMergedForm";
import { useViewer } from "@/session/ViewerProvider";
import { FieldConflict } from "@/ui/FieldConflict";
import { toast } from "@/ui/toast";
import { useMergedSave } from "@/ui/useMergedSave";
import { useSmsCampaignForm, type SmsCampaign } from "../hooks/useSmsCampaigns";
import { idsFromForm, idsToForm } from "../utils/smsDisplay";
import { AudienceSummary } from "./AudienceSummary";
import { GroupMultiSelect } from "./GroupMultiSelect";
import { MessageComposer } from "./MessageComposer";
import { VoterPicker } from "./VoterPicker";
import { DeletedByTeammate } from "@/ui/DeletedByTeammate";
import { TEXTS } from "@convex/lib/texts";

type SmsCampaignDialogProps = {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** the campaign being edited, null to create one */
  editId: Id<"campaigns"> | null;
  /** its live version (undefined once deleted) */
  campaign: SmsCampaign | undefined;
  /** groups a new campaign starts with (?group= from the groups page) */
  initialGroups?: Id<"voterGroups">[];
  orgName: string | undefined;
  segmentsPerSecond: number | undefined;
};

const LABELS: Record<string, string> = {
  name: "Campaign Name",
  description: "Description",
  body: "Message",
  voter_groups: "Voter Groups",
  individual_voters: "Individual Voters",
};
const LIST_FIELDS = new Set(["voter_groups", "individual_voters"]);

function toStored(field: string, value: string): StoredValue {
  if (LIST_FIELDS.has(field)) return idsFromForm(value).sort();
  if (field === "description") return value.trim() === "" ? null : value.trim();
  return value.trim();
}

function fromStored(field: string, theirs: StoredValue): string {
  if (LIST_FIELDS.has(field)) return idsToForm(Array.isArray(theirs) ? theirs : []);
  return theirs === null ? "" : String(theirs);
}

/**
 * Create SMS Campaign / Edit Campaign. The caller remounts it (a new `key`) for each opening.
 * Editing follows teammates' saves live and sends only the changed fields (no lost updates);
 * the lists of groups and voters are one field each, held as sorted JSON.
 */
export function SmsCampaignDialog({
  open,
  onOpenChange,
  editId,
  campaign,
  initialGroups,
  orgName,
  segmentsPerSecond,
}: SmsCampaignDialogProps) {
  const seeVoters = useViewer().can("voters.view");
  const { create, update, editState } = useSmsCampaignForm(editId);
  const startGroups = useMemo(() => idsToForm(initialGroups ?? []), [initialGroups]);
  const saved = useMemo(() => {
    if (editId === null)
      return { name: "", description: "", body: "", voter_groups: startGroups, individual_voters: "[]" };
    if (!campaign) return undefined;
    return {
      name: campaign.name,
      description: campaign.description ?? "",
      body: campaign.body,
      voter_groups: idsToForm(campaign.voterGroups),
      individual_voters: idsToForm(campaign.individualVoters),
    };
  }, [editId, campaign, startGroups]);
  const merged = useMergedForm(editId ?? "new", saved);
  const { busy, save } = useMergedSave(
    merged,
    (c) => [c.field, fromStored(c.field, c.theirs)],
    (k) => LABELS[k],
  );
  const form = merged.form;
  const values = form?.values ?? {};
  const deleted = editId !== null && campaign === undefined && form !== null;
  const groups = idsFromForm<Id<"voterGroups">>(values.voter_groups);
  const voters = idsFromForm<Id<"voters">>(values.individual_voters);
  const nameBlank = (values.name ?? "").trim() === "";

  const handleSave = async () => {
    if (!form) return;
    if (nameBlank) {
      toast.warning(TEXTS.titles.campaignNameRequired, { description: TEXTS.required.campaignName });
      return;
    }
    await save(
      async () => {
        if (editId) {
          await update({ id: editId, edits: editsOf(form, toStored) });
          toast.success("Campaign updated");
        } else {
          await create({
            name: values.name ?? "",
            description: (values.description ?? "").trim() === "" ? null : (values.description ?? ""),
            body: values.body ?? "",
            voterGroups: groups,
            individualVoters: voters,
          });
          toast.success("Campaign created");
        }
        onOpenChange(false);
      },
      editId ? "Error updating campaign" : (e) => toast.failure("Error creating campaign", e, { duration: 7000 }),
    );
  };

  const conflict = (field: string) => {
    const theirs = form?.conflicts[field];
    if (theirs === undefined) return null;
    const shown = LIST_FIELDS.has(field) ? `${idsFromForm(theirs).length} selected` : theirs;
    return (
      <FieldConflict
        label={LABELS[field]}
        theirs={shown}
        by={editState?.fields[field]?.name}
        onKeepMine={() => merged.keepMine(field)}
        onTakeTheirs={() => merged.takeTheirs(field)}
      />
    );
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="620px" aria-describedby={undefined}>
        <Dialog.Title>{editId ? "Edit Campaign" : "Create SMS Campaign"}</Dialog.Title>
        {deleted && <DeletedByTeammate what="campaign" by={editState?.deleted?.name} />}
        <Flex direction="column" gap="3">
          <div>
            <Text as="label" size="2" weight="medium">
              Campaign Name
              <TextField.Root
                value={values.name ?? ""}
                onChange={(e) => merged.setField("name", e.target.value)}
                placeholder="e.g. Early voting reminder"
              />
            </Text>
            {conflict("name")}
          </div>
          <div>
            <Text as="label" size="2" weight="medium">
              Description
              <TextArea
                value={values.description ?? ""}
                onChange={(e) => merged.setField("description", e.target.value)}
                rows={2}
              />
            </Text>
            {conflict("description")}
          </div>
          <div>
            <MessageComposer value={values.body ?? ""} onChange={(v) => merged.setField("body", v)} orgName={orgName} />
            {conflict("body")}
          </div>
          {seeVoters ? (
            <>
              <div>
                <GroupMultiSelect value={groups} onChange={(ids) => merged.setField("voter_groups", idsToForm(ids))} />
                {conflict("voter_groups")}
              </div>
              <div>
                <VoterPicker value={voters} onChange={(ids) => merged.setField("individual_voters", idsToForm(ids))} />
                {conflict("individual_voters")}
              </div>
            </>
          ) : (
            <Text size="2" color="gray">
              Choosing voter groups and voters needs access to voters.
            </Text>
          )}
          <Separator size="4" />
          <Heading size="3" as="h3">
            Summary
          </Heading>
          <AudienceSummary
            groupIds={groups}
            voterIds={voters}
            body={values.body ?? ""}
            segmentsPerSecond={segmentsPerSecond}
          />
        </Flex>
        <Flex gap="3" mt="4" justify="end" wrap="wrap">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button
            loading={busy}
            disabled={deleted || form === null || (editId !== null && nameBlank)}
            onClick={() => void handleSave()}
          >
            {editId ? "Update Campaign" : "Create Campaign"}
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
