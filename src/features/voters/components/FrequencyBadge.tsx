import { Badge } from "@radix-ui/themes";
import { frequencyColor } from "../utils/voterDisplay";

/** Petition mode: how many of the last four elections the voter voted in. */
export function FrequencyBadge({ history }: { history: number | undefined }) {
  return (
    <Badge color={frequencyColor(history)} variant="outline">
      {history ?? 0}/4
    </Badge>
  );
}
