import { PlusIcon } from "@radix-ui/react-icons";
import { Badge, Box, Button } from "@radix-ui/themes";
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import * as Y from "yjs";
import { isEmptyDraft, readDraft } from "@convex/lib/forms/draft";
import { FORM_VERSION } from "@convex/lib/forms/rules";
import { useCollaborativeDoc } from "@/lib/collab/useCollaborativeDoc";
import { useViewer } from "@/session/ViewerProvider";
import { ConnectionNotice } from "@/ui/ConnectionNotice";
import { ConfirmDialog } from "@/ui/ConfirmDialog";
import { PageHeader } from "@/ui/PageHeader";
import { toast } from "@/ui/toast";
import { EmbedCodeDialog } from "./components/EmbedCodeDialog";
import { FormEditor } from "./components/FormEditor";
import { FormList } from "./components/FormList";
import { ViewFormDialog } from "./components/ViewFormDialog";
import { useForms, type FormRow } from "./hooks/useForms";
import { ROUTES } from "@/lib/routes";
import { Loading } from "@/ui/Loading";
import { NoPermission } from "@/ui/NoPermission";
import { RecordGone } from "@/ui/RecordGone";

/** /form-builder: the list of forms, or the editor (`?form=new`, `?form={id}`). */
export function FormBuilderPage() {
  const { can, me } = useViewer();
  const canManage = can("forms.manage");
  const [params, setParams] = useSearchParams();
  const editing = params.get("form");
  const forms = useForms();
  const [viewing, setViewing] = useState<FormRow | null>(null);
  const [embedding, setEmbedding] = useState<FormRow | null>(null);
  const [deleting, setDeleting] = useState<FormRow | null>(null);

  const open = (id: string | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set("form", id);
    else next.delete("form");
    setParams(next);
  };

  const title = editing === "new" ? "Create Form" : editing ? "Edit Form" : "Form Builder";
  return (
    <Box>
      <PageHeader
        title={title}
        description={
          <Badge color="gray" variant="soft">
            Version {FORM_VERSION}
          </Badge>
        }
        breadcrumbs={[
          { label: "Dashboard", to: ROUTES.dashboard },
          { label: "Forms", to: ROUTES.formBuilder },
          { label: "Form Builder" },
        ]}
        actions={
          !editing &&
          canManage && (
            <Button onClick={() => open("new")} data-testid="forms.create">
              <PlusIcon /> Create Form
            </Button>
          )
        }
      />
      {!can("forms.view") ? (
        <NoPermission />
      ) : forms.data === undefined ? (
        <Loading />
      ) : editing && canManage ? (
        editing === "new" ? (
          <CreateForm onCreated={(id) => open(id)} onBack={() => open(null)} create={forms.create} />
        ) : (
          <EditForm
            key={editing}
            form={forms.data.forms.find((f) => f.id === editing) ?? null}
            room={`form:${editing}`}
            offlineKey={me?.userId}
            save={forms.save}
            onBack={() => open(null)}
          />
        )
      ) : (
        <FormList
          forms={forms.data.forms}
          canManage={canManage}
          canCreateContacts={can("voters.manage")}
          activeLimit={forms.data.activeLimit}
          planName={forms.data.planName}
          onEdit={(f) => open(f.id)}
          onView={setViewing}
          onEmbed={setEmbedding}
          onDelete={setDeleting}
          onActive={(f, a) => void forms.setActive(f.id, a)}
          onOptions={(f, o) => void forms.setOptions(f.id, o)}
        />
      )}
      {viewing && <ViewFormDialog form={viewing} onClose={() => setViewing(null)} />}
      {embedding && (
        <EmbedCodeDialog formId={embedding.id} formName={embedding.name} onClose={() => setEmbedding(null)} />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete form"
        description={`Are you sure you want to delete "${deleting?.name ?? ""}"? Its submissions are deleted too.`}
        onConfirm={() => {
          if (deleting) void forms.remove(deleting.id);
          setDeleting(null);
        }}
      />
    </Box>
  );
}

/** Create mode: the draft lives in this browser until Save Form creates the form (and its shared draft). */
function CreateForm({
  create,
  onCreated,
  onBack,
}: {
  create: ReturnType<typeof useForms>["create"];
  onCreated: (id: string) => void;
  onBack: () => void;
}) {
  const [doc] = useState(() => new Y.Doc());
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    const id = await create(readDraft(doc));
    setSaving(false);
    if (id) onCreated(id);
  };
  return <FormEditor doc={doc} form={null} room={null} saving={saving} onSave={() => void save()} onBack={onBack} />;
}

/** Edit mode: the co-edited draft "form:<id>"; Update Form publishes it. */
function EditForm({
  form,
  room,
  offlineKey,
  save,
  onBack,
}: {
  form: FormRow | null;
  room: string;
  offlineKey?: string;
  save: ReturnType<typeof useForms>["save"];
  onBack: () => void;
}) {
  const { doc, status } = useCollaborativeDoc(form ? room : null, {
    offlineKey,
    onError: (e) => toast.failure("Error loading forms", e),
  });
  const [saving, setSaving] = useState(false);
  if (!form) {
    return (
      <RecordGone
        what="form"
        testId="builder.gone"
        action={
          <Button variant="soft" onClick={onBack} mt="2">
            Back to Forms
          </Button>
        }
      />
    );
  }
  if (!doc || (status === "connecting" && isEmptyDraft(doc))) return <Loading />;
  const publish = async () => {
    setSaving(true);
    await save(form.id, readDraft(doc));
    setSaving(false);
  };
  return (
    <>
      <ConnectionNotice status={status} />
      <FormEditor doc={doc} form={form} room={room} saving={saving} onSave={() => void publish()} onBack={onBack} />
    </>
  );
}
