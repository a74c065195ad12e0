import { Cross2Icon } from "@radix-ui/react-icons";
import { Badge, Box, Button, Card, Flex, Grid, IconButton, Select, Text, TextField } from "@radix-ui/themes";
import { VoterSearchField } from "@/ui/VoterSearchField";
import { AUDIT_ACTION_OPTIONS, SYSTEM_ACTOR, type AuditActor, type AuditFilterValues } from "../utils/auditDisplay";

type AuditFiltersProps = {
  values: AuditFilterValues;
  actors: AuditActor[] | undefined;
  /** may the viewer search voters (the target's voter picker) */
  canPickVoter: boolean;
  onChange(patch: Partial<AuditFilterValues>): void;
};

const ALL = "all";

/** The audit log's filters: who, what, to what (an id, or a voter picked by name), and when. */
export function AuditFilters({ values, actors, canPickVoter, onChange }: AuditFiltersProps) {
  const any = Object.values(values).some((v) => v !== "");
  // an actor in the URL the list does not know (yet): still a choice, so the select shows it
  const unknownActor = values.actor !== "" && values.actor !== "system" && !actors?.some((a) => a.id === values.actor);
  return (
    <Card data-testid="audit.filters">
      <Grid columns={{ initial: "1", sm: "2", md: "3" }} gap="3">
        <label>
          <Text size="2" weight="medium">
            Actor
          </Text>
          <Select.Root value={values.actor || ALL} onValueChange={(v) => onChange({ actor: v === ALL ? "" : v })}>
            <Select.Trigger style={{ width: "100%" }} aria-label="Actor" data-testid="audit.filter.actor" />
            <Select.Content>
              <Select.Item value={ALL}>All actors</Select.Item>
              <Select.Item value="system">{SYSTEM_ACTOR}</Select.Item>
              {(actors ?? [])
                .filter((a) => a.id !== null)
                .map((a) => (
                  <Select.Item key={a.id} value={a.id!}>
                    {a.name}
                  </Select.Item>
                ))}
              {unknownActor && <Select.Item value={values.actor}>Unknown actor</Select.Item>}
            </Select.Content>
          </Select.Root>
        </label>
        <label>
          <Text size="2" weight="medium">
            Action
          </Text>
          <Select.Root value={values.action || ALL} onValueChange={(v) => onChange({ action: v === ALL ? "" : v })}>
            <Select.Trigger style={{ width: "100%" }} aria-label="Action" data-testid="audit.filter.action" />
            <Select.Content>
              <Select.Item value={ALL}>All actions</Select.Item>
              {AUDIT_ACTION_OPTIONS.map((o) => (
                <Select.Item key={o.value} value={o.value}>
                  {o.label}
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
        </label>
        <Box>
          <Text as="div" size="2" weight="medium" id="audit-target-label">
            Target
          </Text>
          {values.targetName ? (
            <Flex align="center" gap="2" mt="1" data-testid="audit.filter.targetChip">
              <Badge size="2" color="blue">
                Voter: {values.targetName}
              </Badge>
              <IconButton
                size="1"
                variant="ghost"
                aria-label="Clear the target"
                onClick={() => onChange({ target: "", targetName: "" })}
              >
                <Cross2Icon />
              </IconButton>
            </Flex>
          ) : (
            <Flex direction="column" gap="2">
              <TextField.Root
                value={values.target}
                placeholder="Document id"
                aria-labelledby="audit-target-label"
                onChange={(e) => onChange({ target: e.target.value, targetName: "" })}
                data-testid="audit.filter.target"
              />
              {canPickVoter && (
                <VoterSearchField
                  label="Or find a voter"
                  resultsLabel="Voters found"
                  placeholder="Or find a voter by name…"
                  minChars={2}
                  debounceMs={300}
                  closeAfterBlurMs={150}
                  maxResults={8}
                  detail={(r) => r.email ?? r.phone ?? ""}
                  onPick={(r, name) => onChange({ target: r._id, targetName: name })}
                />
              )}
            </Flex>
          )}
        </Box>
        <label>
          <Text size="2" weight="medium">
            From
          </Text>
          <TextField.Root
            type="date"
            value={values.from}
            onChange={(e) => onChange({ from: e.target.value })}
            data-testid="audit.filter.from"
          />
        </label>
        <label>
          <Text size="2" weight="medium">
            To
          </Text>
          <TextField.Root
            type="date"
            value={values.to}
            onChange={(e) => onChange({ to: e.target.value })}
            data-testid="audit.filter.to"
          />
        </label>
        <Flex align="end">
          <Button
            variant="soft"
            color="gray"
            disabled={!any}
            onClick={() => onChange({ actor: "", action: "", target: "", targetName: "", from: "", to: "" })}
          >
            Clear filters
          </Button>
        </Flex>
      </Grid>
    </Card>
  );
}
