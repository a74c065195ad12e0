import { Callout, Card, Checkbox, Flex, Select, Text, TextField } from "@radix-ui/themes";
import {
  MAX_USE_DESCRIPTION,
  PERMITTED_USES,
  STATE_FILE_USE,
  stateFileUse,
  type AttestationDraft,
  type PermittedUse,
} from "@convex/lib/voters/fileUse";

type VoterFileUseCardProps = {
  value: AttestationDraft;
  onChange(a: AttestationDraft): void;
  /** why the import could not start (shown under the attestation), or null */
  problem: string | null;
  busy: boolean;
};

/**
 * Before an import starts (issue 39): the file's state, the permitted use and that state's
 * restriction, and the admin's attestation. The import does not start without it (MappingStep).
 */
export function VoterFileUseCard({ value, onChange, problem, busy }: VoterFileUseCardProps) {
  const state = stateFileUse(value.state);
  const set = (patch: Partial<AttestationDraft>) => onChange({ ...value, ...patch });
  return (
    <Card data-testid="import.attestation">
      <Flex direction="column" gap="3">
        <Text as="p" size="3" weight="bold" id="voter-file-use-title">
          Voter file use
        </Text>
        <Flex gap="3" wrap="wrap" align="end">
          <Flex direction="column" gap="1" style={{ minWidth: 0, flex: "1 1 200px" }}>
            <Text size="2" weight="medium" id="voter-file-state-label">
              State of this voter file
            </Text>
            <Select.Root value={state?.code ?? ""} onValueChange={(code) => set({ state: code })} disabled={busy}>
              <Select.Trigger
                aria-labelledby="voter-file-state-label"
                placeholder="Choose a state"
                style={{ maxWidth: "100%" }}
              />
              <Select.Content>
                {STATE_FILE_USE.map((s) => (
                  <Select.Item key={s.code} value={s.code}>
                    {s.name}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </Flex>
          <Flex direction="column" gap="1" style={{ minWidth: 0, flex: "1 1 200px" }}>
            <Text size="2" weight="medium" id="voter-file-use-label">
              Permitted use
            </Text>
            <Select.Root value={value.use} onValueChange={(u) => set({ use: u as PermittedUse })} disabled={busy}>
              <Select.Trigger aria-labelledby="voter-file-use-label" style={{ maxWidth: "100%" }} />
              <Select.Content>
                {PERMITTED_USES.map((u) => (
                  <Select.Item key={u.value} value={u.value}>
                    {u.label}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </Flex>
        </Flex>
        {value.use === "other" && (
          <TextField.Root
            aria-label="Describe the permitted use"
            placeholder="Describe the permitted use"
            maxLength={MAX_USE_DESCRIPTION}
            value={value.useOther ?? ""}
            onChange={(e) => set({ useOther: e.target.value })}
            disabled={busy}
          />
        )}
        {state && (
          <Callout.Root color={state.crime ? "red" : "orange"} size="1" data-testid="import.stateRestriction">
            <Callout.Text>
              <Text weight="bold">{state.name}:</Text> {state.use}
            </Callout.Text>
            <Callout.Text size="1">
              A summary, not legal advice: the terms your state's election office attached to the file govern.
            </Callout.Text>
          </Callout.Root>
        )}
        <Text as="label" size="2">
          <Flex gap="2" align="start">
            <Checkbox
              checked={value.attested}
              onCheckedChange={(c) => set({ attested: c === true })}
              disabled={busy}
              aria-describedby={problem ? "voter-file-use-problem" : undefined}
            />
            I attest that this voter file will be used only for the permitted use above
            {state ? `, as ${state.name} permits` : ""}.
          </Flex>
        </Text>
        {problem && (
          <Text size="2" color="red" role="alert" id="voter-file-use-problem" data-testid="import.attestationProblem">
            {problem}
          </Text>
        )}
      </Flex>
    </Card>
  );
}
