import { CheckCircledIcon, CrossCircledIcon } from "@radix-ui/react-icons";
import { Text } from "@radix-ui/themes";
import { hasVerifiedValue, verifiedMatches } from "../utils/voterDisplay";

/**
 * Match/mismatch of a voter field with its state-verified value (trimmed, case-insensitive); no
 * icon when the state file gave no value to compare with.
 */
export function VerifiedIcon({ value, verified }: { value: string | undefined; verified: string | undefined }) {
  if (!hasVerifiedValue(verified)) return null;
  const ok = verifiedMatches(value, verified);
  return (
    <Text
      color={ok ? "green" : "red"}
      role="img"
      aria-label={ok ? "Matches state record" : "Does not match state record"}
      title={ok ? "Match" : "Mismatch"}
    >
      {ok ? <CheckCircledIcon aria-hidden /> : <CrossCircledIcon aria-hidden />}
    </Text>
  );
}
