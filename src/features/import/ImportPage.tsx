import { Button, Callout, Flex } from "@radix-ui/themes";
import { useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { useViewer } from "@/session/ViewerProvider";
import { IGNORE, isHistoryMapping, STANDARD_KEYS, type ColumnMapping, type NewFieldDef } from "@/lib/import/fields";
import { ImportFileError, openImportFile } from "@/lib/import/openFile";
import { autoMatch } from "@/lib/import/pairing";
import type { MatchRule } from "@convex/lib/import/rows";
import { PageHeader } from "@/ui/PageHeader";
import { toast } from "@/ui/toast";
import { CancelImportDialog } from "./components/CancelImportDialog";
import { ImportErrorDialog } from "./components/ImportErrorDialog";
import { MappingStep } from "./components/MappingStep";
import { ProgressPanel } from "./components/ProgressPanel";
import { StepIndicator } from "./components/StepIndicator";
import { SummaryStep } from "./components/SummaryStep";
import { UploadStep } from "./components/UploadStep";
import { useImportRunner } from "./hooks/useImportRunner";
import { useImportCustomFields, useImportDefaultState, useImportDoc } from "./hooks/useImport";
import type { AttestationDraft } from "@convex/lib/voters/fileUse";
import type { ImportId } from "@/lib/import/runner";
import { ROUTES } from "@/lib/routes";
import { NoPermission } from "@/ui/NoPermission";

const PREVIEW_ROWS = 50;

/** Name alone is the default only for files that give nothing better (no voter ID, birth date or address). */
function defaultMatchRule(mapping: ColumnMapping): MatchRule {
  const targets = new Set(Object.values(mapping));
  return ["voter_id", "date_of_birth", "address", "zip"].some((t) => targets.has(t)) ? "standard" : "name";
}

type Parsed = { file: File; headers: string[]; sampleRows: string[][] };

/** /voters/import: Upload → Map Fields → Complete; ?resume={importId} continues an interrupted import. */
export function ImportPage() {
  const { can } = useViewer();
  const [params, setParams] = useSearchParams();
  const resumeId = params.get("resume");
  const { doc: resumeDoc } = useImportDoc(resumeId);
  const { customFields } = useImportCustomFields(can("voters.view"));
  const runner = useImportRunner();
  const [parsed, setParsed] = useState<Parsed | null>(null);
  const [busy, setBusy] = useState(false);
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const [newFields, setNewFields] = useState<NewFieldDef[]>([]);
  const [errorMode, setErrorMode] = useState<"ask" | "ignore">("ask");
  const [matchRule, setMatchRule] = useState<MatchRule>("standard");
  const [updateExisting, setUpdateExisting] = useState(false);
  // the voter-file use attested before the import starts (issue 39); the state defaults to the organisation's
  const defaultState = useImportDefaultState(can("voters.manage"));
  const [attestation, setAttestation] = useState<AttestationDraft>({
    state: "",
    use: "campaign",
    useOther: null,
    attested: false,
  });
  const shownAttestation =
    attestation.state === "" && defaultState ? { ...attestation, state: defaultState } : attestation;
  const [cancelOpen, setCancelOpen] = useState(false);

  const startOver = () => {
    setParsed(null);
    setMapping({});
    setNewFields([]);
    setCancelOpen(false);
    // each file is attested for itself
    setAttestation((a) => ({ ...a, attested: false }));
    runner.reset();
    if (resumeId) setParams({});
  };

  const runWith = async (
    file: File,
    m: ColumnMapping,
    nf: NewFieldDef[],
    sample: string[][],
    resume?: { importId: ImportId; nextRow: number },
  ) => {
    try {
      const result = await runner.start({
        file,
        mapping: m,
        newFields: nf,
        sampleRows: sample,
        errorMode,
        matchRule,
        updateExisting,
        attestation: shownAttestation,
        resume,
      });
      if (result.status === "completed") {
        const r = result.result;
        const updated = r.updated > 0 ? `, ${r.updated.toLocaleString()} updated` : "";
        const description = isHistoryMapping(m)
          ? `${r.imported.toLocaleString()} elections attached to ${r.updated.toLocaleString()} voters`
          : `${r.imported.toLocaleString()} contacts imported${updated}`;
        toast.success("Import complete", { description });
      }
    } catch (e) {
      toast.failure("Import failed", e, { description: "There was an error importing your contacts." });
      runner.reset();
    }
  };

  const handleFile = async (file: File) => {
    setBusy(true);
    try {
      const source = await openImportFile(file);
      const sample = await source.next(PREVIEW_ROWS);
      if (resumeId && resumeDoc) {
        const m: ColumnMapping = Object.fromEntries(resumeDoc.field_mapping.map((f) => [f.column, f.target]));
        if (resumeDoc.field_mapping.some((f) => !source.headers.includes(f.column))) {
          toast.error("Error parsing file", {
            description: "This file's columns differ from the interrupted import's. Select the same file.",
          });
          return;
        }
        const nf = customFields
          .filter((c) => resumeDoc.new_fields_created.includes(c.key))
          .map((c) => ({
            ...c,
            type:
              c.type === "email" || c.type === "phone" || c.type === "date" || c.type === "number"
                ? c.type
                : ("text" as const),
          }));
        setParsed({ file, headers: source.headers, sampleRows: sample });
        setMapping(m);
        void runWith(file, m, nf, sample, { importId: resumeDoc._id, nextRow: resumeDoc.nextRow });
        return;
      }
      const auto = autoMatch(source.headers, sample);
      const known = new Set([...STANDARD_KEYS, ...customFields.map((c) => c.key)]);
      const initial = Object.fromEntries(
        source.headers.map((h) => [h, auto[h] && known.has(auto[h]) ? auto[h] : IGNORE]),
      );
      setMapping(initial);
      setMatchRule(defaultMatchRule(initial));
      setParsed({ file, headers: source.headers, sampleRows: sample });
    } catch (e) {
      if (e instanceof ImportFileError) toast.error(e.title, { description: e.description });
      else
        toast.error("Error parsing file", {
          description: "There was an error reading your file. Please check the format.",
        });
    } finally {
      setBusy(false);
    }
  };

  const handleCancel = async (deleteImported: boolean) => {
    setCancelOpen(false);
    try {
      await runner.cancel(deleteImported);
      toast.info(
        deleteImported
          ? "Import cancelled; imported records are being deleted"
          : "Import cancelled; imported records kept",
      );
    } catch (e) {
      toast.failure("Error deleting imported records", e);
    }
  };

  if (!can("voters.manage")) {
    return (
      <>
        <PageHeader
          title="Import Contacts"
          breadcrumbs={[
            { label: "Dashboard", to: ROUTES.dashboard },
            { label: "Voters", to: ROUTES.voters },
            { label: "Import Contacts" },
          ]}
        />
        <NoPermission />
      </>
    );
  }

  const st = runner.state;
  const step: 1 | 2 | 3 = st.phase === "done" ? 3 : parsed ? 2 : 1;
  const stepLive = st.phase === "running" || st.phase === "stopped";
  return (
    <>
      <PageHeader
        title="Import Contacts"
        breadcrumbs={[
          { label: "Dashboard", to: ROUTES.dashboard },
          { label: "Voters", to: ROUTES.voters },
          { label: "Import Contacts" },
        ]}
        actions={
          <Button variant="soft" asChild>
            <Link to={ROUTES.importHistory}>Import History</Link>
          </Button>
        }
      />
      <StepIndicator step={step} />
      {resumeId && resumeDoc && st.phase === "idle" && (
        <Callout.Root mb="4" color="orange">
          <Callout.Text>
            Resuming “{resumeDoc.filename}”: rows 1–{(resumeDoc.nextRow - 1).toLocaleString()} are already imported (
            {resumeDoc.imported_records.toLocaleString()} contacts). Select the same file to continue from row{" "}
            {resumeDoc.nextRow.toLocaleString()}.
          </Callout.Text>
        </Callout.Root>
      )}
      {step === 1 && <UploadStep busy={busy} onFile={handleFile} />}
      {step === 2 && parsed && (
        <Flex direction="column" gap="4">
          {stepLive && (
            <ProgressPanel
              importId={st.phase === "running" ? st.importId : st.result.importId}
              onCancel={() => {
                runner.pause();
                setCancelOpen(true);
              }}
            />
          )}
          {!resumeId && (
            <MappingStep
              fileName={parsed.file.name}
              headers={parsed.headers}
              sampleRows={parsed.sampleRows}
              mapping={mapping}
              onMappingChange={setMapping}
              newFields={newFields}
              onNewFieldsChange={setNewFields}
              customFields={customFields}
              errorMode={errorMode}
              onErrorModeChange={setErrorMode}
              matchRule={matchRule}
              onMatchRuleChange={setMatchRule}
              updateExisting={updateExisting}
              onUpdateExistingChange={setUpdateExisting}
              attestation={shownAttestation}
              onAttestationChange={setAttestation}
              busy={stepLive}
              onImport={() => void runWith(parsed.file, mapping, newFields, parsed.sampleRows)}
              onStartOver={startOver}
            />
          )}
        </Flex>
      )}
      {step === 3 && st.phase === "done" && <SummaryStep importId={st.result.importId} onImportAnother={startOver} />}
      <CancelImportDialog
        open={cancelOpen || st.phase === "stopped"}
        stopped={st.phase === "stopped"}
        onContinue={() => {
          setCancelOpen(false);
          runner.resume();
        }}
        onKeep={() => void handleCancel(false)}
        onDelete={() => void handleCancel(true)}
      />
      <ImportErrorDialog pending={runner.pendingError} />
    </>
  );
}
