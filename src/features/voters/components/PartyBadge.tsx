import { Badge } from "@radix-ui/themes";
import { partyColor, partyLabel } from "../utils/voterDisplay";

export function PartyBadge({ party }: { party: string | undefined }) {
  return (
    <Badge color={partyColor(party)} variant="soft">
      {partyLabel(party)}
    </Badge>
  );
}
