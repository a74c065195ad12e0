import { PlusIcon, TrashIcon } from "@radix-ui/react-icons";
import { Badge, Button, Card, Flex, Heading, IconButton, Text } from "@radix-ui/themes";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { toast } from "@/ui/toast";
import { useRemoveCustomField } from "../hooks/useCustomFields";
import { CUSTOM_FIELD_TYPES } from "../utils/voterForm";
import { DeleteFieldDialog } from "./DeleteFieldDialog";

type CustomFieldsPanelProps = {
  defs: { _id: Id<"customFieldDefs">; label: string; type: string; required: boolean }[];
  canManage: boolean;
  onAdd(): void;
};

/** The organisation's custom fields; managers add them and delete them after a confirmation naming how many voters hold a value. */
export function CustomFieldsPanel({ defs, canManage, onAdd }: CustomFieldsPanelProps) {
  const { remove } = useRemoveCustomField();
  const [toDelete, setToDelete] = useState<{ _id: Id<"customFieldDefs">; label: string } | null>(null);
  const handleRemove = async (id: Id<"customFieldDefs">) => {
    try {
      await remove({ id });
    } catch (e) {
      toast.failure("Error deleting field", e);
    } finally {
      setToDelete(null);
    }
  };
  return (
    <Card>
      <Flex justify="between" align="center" mb="2">
        <Heading size="3" as="h2">
          Custom Fields
        </Heading>
        {canManage && (
          <Button size="1" variant="soft" onClick={onAdd} type="button">
            <PlusIcon /> Add Field
          </Button>
        )}
      </Flex>
      {defs.length === 0 ? (
        <Text size="2" color="gray">
          No custom fields yet.
        </Text>
      ) : (
        <Flex direction="column" gap="2">
          {defs.map((d) => (
            <Flex key={d._id} justify="between" align="center">
              <Text size="2">
                {d.label}{" "}
                <Badge variant="soft">{CUSTOM_FIELD_TYPES.find((t) => t.value === d.type)?.label ?? d.type}</Badge>
                {d.required && (
                  <Badge color="red" variant="soft" ml="1">
                    Required
                  </Badge>
                )}
              </Text>
              {canManage && (
                <IconButton
                  size="1"
                  variant="ghost"
                  color="red"
                  aria-label={`Delete field ${d.label}`}
                  onClick={() => setToDelete(d)}
                  type="button"
                >
                  <TrashIcon />
                </IconButton>
              )}
            </Flex>
          ))}
        </Flex>
      )}
      {canManage && (
        <DeleteFieldDialog
          key={toDelete?._id ?? "none"}
          field={toDelete}
          onOpenChange={(o) => !o && setToDelete(null)}
          onConfirm={() => toDelete && void handleRemove(toDelete._id)}
        />
      )}
    </Card>
  );
}
