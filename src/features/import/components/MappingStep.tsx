import { MagicWandIcon, CheckCircledIcon, Pencil1Icon, PlusIcon } from "@radix-ui/react-icons";
import { Badge, Button, Callout, Card, Checkbox, Flex, Select, Table, Text } from "@radix-ui/themes";
import { MATCH_RULE_LABELS, type MatchRule } from "@convex/lib/import/rows";
import { useState } from "react";
import {
  CREATE_NEW,
  IGNORE,
  isHistoryMapping,
  STANDARD_KEYS,
  TARGET_FIELDS,
  type ColumnMapping,
  type NewFieldDef,
} from "@/lib/import/fields";
import { suggestPairings, type PairingSuggestion } from "@/lib/import/pairing";
import { MISSING_REQUIRED, validateMapping, type MappingValidation } from "@/lib/import/validateMapping";
import { toast } from "@/ui/toast";
import { FieldDialog } from "./FieldDialog";
import { TargetSelect } from "./TargetSelect";
import { ScrollTable } from "@/ui/ScrollTable";
import { TEXTS } from "@convex/lib/texts";
import { ATTESTATION_TEXTS, attestationProblem, type AttestationDraft } from "@convex/lib/voters/fileUse";
import { VoterFileUseCard } from "./VoterFileUseCard";

type MappingStepProps = {
  fileName: string;
  headers: string[];
  sampleRows: string[][];
  mapping: ColumnMapping;
  onMappingChange(m: ColumnMapping): void;
  newFields: NewFieldDef[];
  onNewFieldsChange(f: NewFieldDef[]): void;
  customFields: { key: string; label: string }[];
  errorMode: "ask" | "ignore";
  onErrorModeChange(m: "ask" | "ignore"): void;
  matchRule: MatchRule;
  onMatchRuleChange(r: MatchRule): void;
  updateExisting: boolean;
  onUpdateExistingChange(u: boolean): void;
  /** the voter-file use the admin attests (issue 39): without it the import does not start */
  attestation: AttestationDraft;
  onAttestationChange(a: AttestationDraft): void;
  busy: boolean;
  onImport(): void;
  onStartOver(): void;
};

/** Step 2: column table, Use AI to Pair (local engine), Validate Mapping, new database fields. */
export function MappingStep(p: MappingStepProps) {
  const [explanations, setExplanations] = useState<Record<string, PairingSuggestion>>({});
  const [validation, setValidation] = useState<MappingValidation | null>(null);
  const [dialog, setDialog] = useState<{ column: string; mode: "create" | "edit" } | null>(null);
  /** why Import Contacts was refused for the attestation (shown until the attestation changes) */
  const [attestationError, setAttestationError] = useState<string | null>(null);
  const required = new Set(TARGET_FIELDS.filter((f) => f.required).map((f) => f.key));
  const allCustom = [...p.customFields, ...p.newFields.filter((n) => !p.customFields.some((c) => c.key === n.key))];

  const setTarget = (column: string, target: string) => {
    if (target === CREATE_NEW) {
      p.onMappingChange({ ...p.mapping, [column]: CREATE_NEW });
      setDialog({ column, mode: "create" });
      return;
    }
    p.onMappingChange({ ...p.mapping, [column]: target });
  };

  const handlePair = () => {
    const suggestions = suggestPairings(p.headers, p.sampleRows);
    const paired = suggestions.filter((s) => s.target !== IGNORE);
    if (paired.length === 0) {
      toast.error("AI mapping failed", {
        description: "Could not automatically pair fields. Please map them manually.",
      });
      return;
    }
    const next: ColumnMapping = { ...p.mapping };
    for (const s of suggestions) next[s.header] = s.target;
    p.onMappingChange(next);
    setExplanations(Object.fromEntries(suggestions.map((s) => [s.header, s])));
    toast.success(`Paired ${paired.length} of ${p.headers.length} columns`, {
      description: "Each suggestion shows why it was made.",
    });
  };

  const handleValidate = () => {
    const r = validateMapping(
      p.headers,
      p.sampleRows,
      p.mapping,
      allCustom.map((c) => ({ key: c.key, label: c.label, type: "text" })),
    );
    setValidation(r);
    if (r.issues.length > 0)
      toast.warning("Validation issues found", {
        description: `${r.issues.length} potential issue${r.issues.length === 1 ? "" : "s"}`,
      });
    else toast.success("Mapping looks good");
  };

  const history = isHistoryMapping(p.mapping);
  const handleImport = () => {
    const targets = new Set(Object.values(p.mapping));
    if (history && !targets.has("voter_id")) {
      toast.error(MISSING_REQUIRED.title, { description: TEXTS.import.mapVoterId });
      return;
    }
    if (!history && (!targets.has("first_name") || !targets.has("last_name"))) {
      toast.error(MISSING_REQUIRED.title, { description: MISSING_REQUIRED.description });
      return;
    }
    const r = validateMapping(
      p.headers,
      p.sampleRows,
      p.mapping,
      allCustom.map((c) => ({ key: c.key, label: c.label, type: "text" })),
    );
    if (!r.isValid) {
      setValidation(r);
      toast.warning("Validation issues found", {
        description: `${r.issues.length} potential issue${r.issues.length === 1 ? "" : "s"}`,
      });
      return;
    }
    const problem = attestationProblem(p.attestation);
    setAttestationError(problem);
    if (problem !== null) {
      toast.error(ATTESTATION_TEXTS.title, { description: problem });
      return;
    }
    p.onImport();
  };

  const pendingDef = dialog ? p.newFields.find((f) => f.key === p.mapping[dialog.column]) : undefined;

  return (
    <Flex direction="column" gap="4">
      <Card>
        <Flex justify="between" align="center" wrap="wrap" gap="3">
          <Text>
            <Text weight="bold">{p.fileName}</Text> · {p.headers.length} columns
          </Text>
          <Flex gap="2" wrap="wrap" align="center">
            <Text size="2" color="gray">
              On row errors
            </Text>
            <Select.Root value={p.errorMode} onValueChange={(v) => p.onErrorModeChange(v as "ask" | "ignore")}>
              <Select.Trigger aria-label="Error handling" />
              <Select.Content>
                <Select.Item value="ask">Ask me</Select.Item>
                <Select.Item value="ignore">Ignore all similar errors</Select.Item>
              </Select.Content>
            </Select.Root>
            <Button variant="soft" onClick={handlePair} disabled={p.busy}>
              <MagicWandIcon /> Use AI to Pair
            </Button>
            <Button variant="soft" onClick={handleValidate} disabled={p.busy}>
              <CheckCircledIcon /> Validate Mapping
            </Button>
            <Button onClick={handleImport} disabled={p.busy}>
              Import Contacts
            </Button>
            <Button variant="outline" color="gray" onClick={p.onStartOver} disabled={p.busy}>
              Start Over
            </Button>
          </Flex>
        </Flex>
      </Card>

      <Card data-testid="import.matching">
        {history ? (
          <Text size="2">
            <Text weight="bold">Vote-history file:</Text> each row's election is attached to the voter with its voter ID
            (rows naming nobody are listed as errors).
          </Text>
        ) : (
          <Flex direction="column" gap="2">
            <Flex gap="2" align="center" wrap="wrap">
              <Text as="label" size="2" weight="bold" id="match-rule-label">
                Match existing records by
              </Text>
              <Select.Root
                value={p.matchRule}
                onValueChange={(v) => p.onMatchRuleChange(v as MatchRule)}
                disabled={p.busy}
              >
                <Select.Trigger aria-labelledby="match-rule-label" style={{ maxWidth: "100%" }} />
                <Select.Content>
                  {(Object.keys(MATCH_RULE_LABELS) as MatchRule[]).map((r) => (
                    <Select.Item key={r} value={r}>
                      {MATCH_RULE_LABELS[r]}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
            </Flex>
            {p.matchRule === "name" && (
              <Text size="1" color="orange">
                Name alone treats different people with a common name as one: prefer the voter ID or address rule for
                state files.
              </Text>
            )}
            <Text as="label" size="2">
              <Flex gap="2" align="center">
                <Checkbox
                  checked={p.updateExisting}
                  onCheckedChange={(c) => p.onUpdateExistingChange(c === true)}
                  disabled={p.busy}
                />
                Update existing records: apply changed fields (status, address, party…) to matched voters, recorded in
                each voter's history
              </Flex>
            </Text>
          </Flex>
        )}
      </Card>

      <VoterFileUseCard
        value={p.attestation}
        onChange={(a) => {
          setAttestationError(null);
          p.onAttestationChange(a);
        }}
        problem={attestationError}
        busy={p.busy}
      />

      {validation && (validation.issues.length > 0 || validation.suggestions.length > 0) && (
        <Callout.Root color={validation.isValid ? "orange" : "red"} data-testid="import.validation">
          <Callout.Text>
            <Text weight="bold">
              {validation.isValid ? "Mapping is valid, with warnings" : "Mapping is not valid yet"}
            </Text>
          </Callout.Text>
          {validation.issues.map((i) => (
            <Callout.Text key={i}>• {i}</Callout.Text>
          ))}
          {validation.suggestions.slice(0, 8).map((s) => (
            <Callout.Text key={s} color="gray">
              → {s}
            </Callout.Text>
          ))}
        </Callout.Root>
      )}

      <ScrollTable label="Map Fields" variant="surface" data-testid="import.mapping">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>CSV Column</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Sample Data</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Target Field</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Required</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Actions</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {p.headers.map((h, i) => {
            const target = p.mapping[h] ?? IGNORE;
            const isNew =
              target !== IGNORE &&
              target !== CREATE_NEW &&
              !STANDARD_KEYS.has(target) &&
              p.newFields.some((f) => f.key === target);
            const why = explanations[h];
            return (
              <Table.Row key={h}>
                <Table.RowHeaderCell>
                  <Text weight="medium">{h}</Text>
                </Table.RowHeaderCell>
                <Table.Cell>
                  <Text color="gray" size="2">
                    {String(p.sampleRows[0]?.[i] ?? "")}
                  </Text>
                </Table.Cell>
                <Table.Cell>
                  <TargetSelect column={h} value={target} customFields={allCustom} onChange={(v) => setTarget(h, v)} />
                  {why && why.target === target && (
                    <Text as="p" size="1" color="gray" mt="1">
                      {why.target === IGNORE
                        ? why.reasons[0]
                        : `${Math.round(why.confidence * 100)}% · ${why.reasons.join("; ")}`}
                    </Text>
                  )}
                </Table.Cell>
                <Table.Cell>{required.has(target) && <Badge color="red">Required</Badge>}</Table.Cell>
                <Table.Cell>
                  {isNew ? (
                    <Button size="1" variant="ghost" onClick={() => setDialog({ column: h, mode: "edit" })}>
                      <Pencil1Icon /> Edit field
                    </Button>
                  ) : (
                    <Button size="1" variant="ghost" onClick={() => setTarget(h, CREATE_NEW)}>
                      <PlusIcon /> New field
                    </Button>
                  )}
                </Table.Cell>
              </Table.Row>
            );
          })}
        </Table.Body>
      </ScrollTable>

      {dialog && (
        <FieldDialog
          mode={dialog.mode}
          column={dialog.column}
          initial={pendingDef}
          takenKeys={[
            ...STANDARD_KEYS,
            ...p.customFields.map((c) => c.key),
            ...p.newFields.filter((f) => f.key !== pendingDef?.key).map((f) => f.key),
          ]}
          onClose={() => {
            if (p.mapping[dialog.column] === CREATE_NEW) p.onMappingChange({ ...p.mapping, [dialog.column]: IGNORE });
            setDialog(null);
          }}
          onSave={(def) => {
            const others = p.newFields.filter((f) => f.key !== pendingDef?.key);
            p.onNewFieldsChange([...others, def]);
            p.onMappingChange({ ...p.mapping, [dialog.column]: def.key });
            setDialog(null);
          }}
        />
      )}
    </Flex>
  );
}
