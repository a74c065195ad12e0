import { CheckCircledIcon, CrossCircledIcon } from "@radix-ui/react-icons";
import { Text } from "@radix-ui/themes";
import { verifiedMatches } from "../utils/voterDisplay";

/** Match/mismatch of a voter field with its state-verified value (trimmed, case-insensitive). */
export function VerifiedIcon({ value, verified }: { value: string | undefined; verified: string | undefined }) {
  const ok = verifiedMatches(value, verified);
  return (
    <Text color={ok ? "green" : "red"} aria-label={ok ? "Matches state record" : "Does not match state record"} title={ok ? "Match" : "Mismatch"}>
      {ok ? <CheckCircledIcon /> : <CrossCircledIcon />}
    </Text>
  );
}
