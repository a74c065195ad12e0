import { Text } from "@radix-ui/themes";
import { countLabel } from "../utils/voterDisplay";

type VoterTotalProps = {
  total: number;
  started: boolean;
  done: boolean;
  /** the search reached Convex's 1,024 results: more voters may match */
  capped: boolean;
  /** what one record is called in the current mode, lower case ("voter", "contact") */
  noun: string;
};

/** How many voters match the search and filters: "12,345 voters", "Counting… 4,000+", "1,024+ voters". */
export function VoterTotal({ total, started, done, capped, noun }: VoterTotalProps) {
  let text: string;
  if (!started) text = "Counting…";
  else if (!done) text = `Counting… ${total.toLocaleString()}+`;
  else if (capped) text = `${total.toLocaleString()}+ ${noun}s`;
  else text = countLabel(total, noun);
  return (
    <Text as="p" size="2" color="gray" aria-live="polite" data-testid="voters.total">
      <Text weight="medium" color={done ? undefined : "gray"} highContrast={done}>
        {text}
      </Text>
      {done && capped && <> · the search stops at its first 1,024 results, so refine it to count them all</>}
    </Text>
  );
}
