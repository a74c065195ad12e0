import { PlusIcon } from "@radix-ui/react-icons";
import { Badge, Box, Button, Card, Dialog, Flex, Grid, Heading, Text, TextArea, TextField } from "@radix-ui/themes";
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router-dom";
import type { Id } from "@convex/_generated/dataModel";
import { isEmptySurveyDraft } from "@convex/lib/surveys/draft";
import { useCollaborativeDoc } from "@/lib/collab/useCollaborativeDoc";
import { useViewer } from "@/session/ViewerProvider";
import { ConnectionNotice } from "@/ui/ConnectionNotice";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { PageHeader } from "@/ui/PageHeader";
import { toast } from "@/ui/toast";
import { SurveyEditor } from "./components/SurveyEditor";
import { useSurveys, type SurveyRow } from "./hooks/useSurveys";
import { useCreateSurvey, useRemoveSurvey } from "./hooks/useSurveyActions";
import { ROUTES } from "@/lib/routes";
import { Loading } from "@/ui/Loading";
import { NoPermission } from "@/ui/NoPermission";
import { RecordGone } from "@/ui/RecordGone";

/** /survey-maker: survey cards, the create modal (`?create=true`), the editor (`?survey={id}`). */
export function SurveyMakerPage() {
  const { can, me } = useViewer();
  const allowed = can("surveys.view");
  const canManage = can("surveys.manage");
  const [params, setParams] = useSearchParams();
  const surveys = useSurveys(allowed);
  const [creating, setCreating] = useState(false);
  // ?create=true opens the create modal, and the parameter is then removed (spec/3 §2.1)
  const createParam = params.get("create") === "true";
  if (createParam && canManage && !creating) setCreating(true);
  useEffect(() => {
    if (!creating || !params.has("create")) return;
    const p = new URLSearchParams(params);
    p.delete("create");
    setParams(p, { replace: true });
  }, [creating, params, setParams]);
  const [deleting, setDeleting] = useState<SurveyRow | null>(null);
  const { removeSurvey } = useRemoveSurvey();
  const openId = params.get("survey");

  const go = (next: Record<string, string | null>) => {
    const p = new URLSearchParams(params);
    for (const [k, val] of Object.entries(next)) {
      if (val === null) p.delete(k);
      else p.set(k, val);
    }
    setParams(p);
  };
  const closeCreate = () => setCreating(false);

  const open = openId ? surveys?.find((s) => s.id === openId) : undefined;
  return (
    <Box>
      <PageHeader
        title="Survey Maker"
        breadcrumbs={[{ label: "Dashboard", to: ROUTES.dashboard }, { label: "Surveys" }]}
        actions={
          !openId &&
          canManage && (
            <Button onClick={() => setCreating(true)} data-testid="survey.create">
              <PlusIcon /> Create Survey
            </Button>
          )
        }
      />
      {!allowed ? (
        <NoPermission />
      ) : surveys === undefined ? (
        <Loading />
      ) : openId ? (
        open ? (
          <OpenSurvey
            key={open.id}
            survey={open}
            offlineKey={me?.userId}
            initialTab={params.get("tab") ?? "edit"}
            onBack={() => go({ survey: null, tab: null })}
          />
        ) : (
          <RecordGone
            what="survey"
            testId="survey.gone"
            action={
              <Button variant="soft" mt="2" onClick={() => go({ survey: null, tab: null })}>
                Back to Surveys
              </Button>
            }
          />
        )
      ) : surveys.length === 0 ? (
        <Card>
          <Text color="gray" data-testid="survey.empty">
            No surveys created yet
          </Text>
        </Card>
      ) : (
        <Grid columns={{ initial: "1", sm: "2", lg: "3" }} gap="3">
          {surveys.map((s) => (
            <Card key={s.id} data-testid="survey.card">
              <Flex direction="column" gap="2" height="100%">
                <Heading as="h2" size="3">
                  {s.name}
                </Heading>
                {s.description && (
                  <Text size="2" color="gray">
                    {s.description}
                  </Text>
                )}
                <Flex gap="2" wrap="wrap">
                  <Badge>
                    {s.pages.length} {s.pages.length === 1 ? "page" : "pages"}
                  </Badge>
                  <Badge color="gray">{s.pages.reduce((n, p) => n + p.fields.length, 0)} questions</Badge>
                  <Badge color="green">
                    {s.submissionCount} {s.submissionCount === 1 ? "submission" : "submissions"}
                  </Badge>
                </Flex>
                <Flex gap="2" mt="auto" pt="2">
                  <Button size="1" onClick={() => go({ survey: s.id, tab: "edit" })}>
                    {canManage ? "Edit" : "Open"}
                  </Button>
                  {canManage && (
                    <Button size="1" variant="soft" color="red" onClick={() => setDeleting(s)}>
                      Delete
                    </Button>
                  )}
                </Flex>
              </Flex>
            </Card>
          ))}
        </Grid>
      )}
      {creating && (
        <CreateSurveyDialog
          onClose={closeCreate}
          onCreated={(id) => {
            setCreating(false);
            go({ survey: id, tab: "submissions" });
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete survey"
        description={`Are you sure you want to delete "${deleting?.name ?? ""}"? Its submissions are deleted too.`}
        onConfirm={() => {
          if (deleting)
            void removeSurvey({ id: deleting.id }).then(
              () => toast.info("Survey Deleted"),
              (e: unknown) => toast.failure("Error deleting survey", e),
            );
          setDeleting(null);
        }}
      />
    </Box>
  );
}

function OpenSurvey({
  survey,
  offlineKey,
  initialTab,
  onBack,
}: {
  survey: SurveyRow;
  offlineKey?: string;
  initialTab: string;
  onBack: () => void;
}) {
  const room = `survey:${survey.id}`;
  const { doc, status } = useCollaborativeDoc(room, {
    offlineKey,
    onError: (e) => toast.failure("Error loading survey", e),
  });
  if (!doc || (status === "connecting" && isEmptySurveyDraft(doc))) return <Loading />;
  return (
    <>
      <ConnectionNotice status={status} />
      <SurveyEditor doc={doc} survey={survey} room={room} initialTab={initialTab} onBack={onBack} />
    </>
  );
}

/** The create modal: name (required), recipient email (defaults to the settings' default recipient), description. */
function CreateSurveyDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (id: Id<"surveys">) => void }) {
  const { settings, create } = useCreateSurvey();
  const [name, setName] = useState("");
  const [recipient, setRecipient] = useState<string | null>(null);
  const [description, setDescription] = useState("");
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      const id = await create({
        name,
        description: description || null,
        recipient: (recipient ?? settings?.defaultRecipient ?? "") || null,
      });
      toast.success("Survey Created");
      onCreated(id);
    } catch (e) {
      toast.failure("Error creating survey", e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="480px">
        <Dialog.Title>Create Survey</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          Name your survey; you add pages and questions next.
        </Dialog.Description>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) void submit();
          }}
        >
          <Flex direction="column" gap="3">
            <label>
              <Text size="2" weight="medium">
                Survey name{" "}
                <Text color="red" aria-hidden>
                  *
                </Text>
              </Text>
              <TextField.Root
                value={name}
                maxLength={200}
                onChange={(e) => setName(e.target.value)}
                data-testid="survey.createName"
              />
            </label>
            <label>
              <Text size="2" weight="medium">
                Recipient email (optional)
              </Text>
              <TextField.Root
                type="email"
                value={recipient ?? settings?.defaultRecipient ?? ""}
                onChange={(e) => setRecipient(e.target.value)}
              />
            </label>
            <label>
              <Text size="2" weight="medium">
                Description
              </Text>
              <TextArea value={description} maxLength={2000} onChange={(e) => setDescription(e.target.value)} />
            </label>
            <Flex justify="end" gap="3">
              <Dialog.Close>
                <Button type="button" variant="soft" color="gray">
                  Cancel
                </Button>
              </Dialog.Close>
              <Button type="submit" disabled={!name.trim()} loading={busy} data-testid="survey.createSubmit">
                Create Survey
              </Button>
            </Flex>
          </Flex>
        </form>
      </Dialog.Content>
    </Dialog.Root>
  );
}
