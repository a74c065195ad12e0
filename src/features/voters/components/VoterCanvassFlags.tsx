import { Badge, Flex, Text } from "@radix-ui/themes";
import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { formatDateTime } from "@/lib/dateTime";
import { useVoterCanvassFlags } from "../hooks/useVoterContact";

type Kind = FunctionReturnType<typeof api.canvassDashboard.voterFlags>[number]["kind"];

const FLAGS: Record<Kind, { label: string; color: "purple" | "orange" | "gray" | "red" | "blue" }> = {
  moved: { label: "Moved", color: "purple" },
  wrong_address: { label: "Wrong address", color: "orange" },
  deceased: { label: "Deceased", color: "gray" },
  do_not_contact: { label: "Do not contact", color: "red" },
  canvass_added: { label: "Added at the door", color: "blue" },
};

type VoterCanvassFlagsProps = { voterId: Id<"voters"> };

/**
 * What canvassers learnt about the voter at the door (moved, wrong address, deceased, do not
 * contact, added at the door): a badge each, with who marked it, when and on which walk list. Live;
 * nothing when there is none.
 */
export function VoterCanvassFlags({ voterId }: VoterCanvassFlagsProps) {
  const { flags } = useVoterCanvassFlags(voterId);
  if (!flags || flags.length === 0) return null;
  return (
    <Flex asChild direction="column" gap="1" mb="3">
      <ul
        style={{ listStyle: "none", margin: 0, padding: 0 }}
        aria-label="Canvass flags"
        data-testid="voters.canvassFlags"
      >
        {flags.map((f) => (
          <li key={f.id} data-testid="voters.canvassFlag" data-kind={f.kind}>
            <Flex gap="2" align="center" wrap="wrap">
              <Badge color={FLAGS[f.kind].color}>{FLAGS[f.kind].label}</Badge>
              <Text size="1" color="gray">
                {`${f.byName} · ${formatDateTime(f.at)}${f.listName ? ` · ${f.listName}` : ""}`}
              </Text>
            </Flex>
          </li>
        ))}
      </ul>
    </Flex>
  );
}
