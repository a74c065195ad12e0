import { DotsHorizontalIcon } from "@radix-ui/react-icons";
import { Badge, Card, DropdownMenu, Flex, Heading, IconButton, Switch, Text } from "@radix-ui/themes";
import { UNLIMITED } from "@convex/lib/plans";
import type { FormRow } from "../hooks/useForms";

type FormListProps = {
  forms: FormRow[];
  canManage: boolean;
  /** voters.manage: needed to have submissions create contacts */
  canCreateContacts: boolean;
  activeLimit: number;
  planName: string;
  onEdit: (f: FormRow) => void;
  onView: (f: FormRow) => void;
  onEmbed: (f: FormRow) => void;
  onDelete: (f: FormRow) => void;
  onActive: (f: FormRow, active: boolean) => void;
  onOptions: (f: FormRow, options: { matchVoters: boolean; createContacts: boolean }) => void;
};

/** The builder's list view: name, description, status, field count, actions. */
export function FormList({
  forms,
  canManage,
  canCreateContacts,
  activeLimit,
  planName,
  onEdit,
  onView,
  onEmbed,
  onDelete,
  onActive,
  onOptions,
}: FormListProps) {
  const active = forms.filter((f) => f.status === "active").length;
  return (
    <Flex direction="column" gap="3">
      {activeLimit !== UNLIMITED && (
        <Text size="2" color="gray" data-testid="forms.activeLimit">
          Active forms: {active} of {activeLimit} ({planName} plan)
        </Text>
      )}
      {forms.length === 0 ? (
        <Card>
          <Text color="gray" data-testid="forms.empty">
            No forms created yet
          </Text>
        </Card>
      ) : (
        forms.map((f) => {
          const fieldCount = f.fields.filter((x) => x.type !== "separator").length;
          return (
            <Card key={f.id} data-testid="forms.row">
              <Flex justify="between" align="start" gap="3">
                <Flex direction="column" gap="1" style={{ minWidth: 0 }}>
                  <Flex gap="2" align="center" wrap="wrap">
                    <Heading as="h2" size="3">
                      {f.name}
                    </Heading>
                    <Badge color={f.status === "active" ? "green" : "gray"} data-testid="forms.status">
                      {f.status}
                    </Badge>
                  </Flex>
                  {f.description && (
                    <Text size="2" color="gray">
                      {f.description}
                    </Text>
                  )}
                  <Text size="1" color="gray">
                    {fieldCount} {fieldCount === 1 ? "field" : "fields"} · {f.submissionCount}{" "}
                    {f.submissionCount === 1 ? "submission" : "submissions"} · saved by {f.updatedByName}
                  </Text>
                  {canManage && (
                    <Flex gap="4" mt="2" wrap="wrap">
                      <Text as="label" size="2">
                        <Flex gap="2" align="center">
                          <Switch
                            checked={f.status === "active"}
                            onCheckedChange={(c) => onActive(f, c)}
                            data-testid="forms.activeSwitch"
                          />
                          Active
                        </Flex>
                      </Text>
                      <Text as="label" size="2">
                        <Flex gap="2" align="center">
                          <Switch
                            checked={f.matchVoters}
                            onCheckedChange={(c) =>
                              onOptions(f, { matchVoters: c, createContacts: c && f.createContacts })
                            }
                          />
                          Match submissions to voters
                        </Flex>
                      </Text>
                      {f.matchVoters && canCreateContacts && (
                        <Text as="label" size="2">
                          <Flex gap="2" align="center">
                            <Switch
                              checked={f.createContacts}
                              onCheckedChange={(c) => onOptions(f, { matchVoters: true, createContacts: c })}
                            />
                            Add unmatched submitters as contacts
                          </Flex>
                        </Text>
                      )}
                    </Flex>
                  )}
                </Flex>
                <DropdownMenu.Root>
                  <DropdownMenu.Trigger>
                    <IconButton
                      variant="ghost"
                      color="gray"
                      aria-label={`Actions for ${f.name}`}
                      data-testid="forms.actions"
                    >
                      <DotsHorizontalIcon />
                    </IconButton>
                  </DropdownMenu.Trigger>
                  <DropdownMenu.Content>
                    {canManage && <DropdownMenu.Item onSelect={() => onEdit(f)}>Edit</DropdownMenu.Item>}
                    <DropdownMenu.Item onSelect={() => onView(f)}>View</DropdownMenu.Item>
                    <DropdownMenu.Item onSelect={() => onEmbed(f)}>Get Embed Code</DropdownMenu.Item>
                    {canManage && (
                      <>
                        <DropdownMenu.Separator />
                        <DropdownMenu.Item color="red" onSelect={() => onDelete(f)}>
                          Delete
                        </DropdownMenu.Item>
                      </>
                    )}
                  </DropdownMenu.Content>
                </DropdownMenu.Root>
              </Flex>
            </Card>
          );
        })
      )}
    </Flex>
  );
}
