import { CheckCircledIcon, ExclamationTriangleIcon } from "@radix-ui/react-icons";
import { Callout } from "@radix-ui/themes";
import { verifyText, type VerifyResult } from "../utils/auditDisplay";

/** Verify chain's outcome: verified with the number of entries, or where the chain breaks and why. */
export function AuditVerifyResult({ result }: { result: VerifyResult }) {
  return (
    <Callout.Root color={result.ok ? "green" : "red"} role="status" data-testid="audit.verifyResult">
      <Callout.Icon>{result.ok ? <CheckCircledIcon /> : <ExclamationTriangleIcon />}</Callout.Icon>
      <Callout.Text>{verifyText(result)}</Callout.Text>
    </Callout.Root>
  );
}
