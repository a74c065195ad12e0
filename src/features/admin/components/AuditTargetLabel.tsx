import { Link as RadixLink, Text } from "@radix-ui/themes";
import { Link } from "react-router-dom";
import { voterPath } from "@/lib/routes";
import type { AuditEntry } from "../utils/auditDisplay";

/** What an entry was done to: a voter links to their page (a deleted one's page says who deleted them). */
export function AuditTargetLabel({ target }: { target: AuditEntry["target"] }) {
  const label = target.label || target.id;
  if (target.table === "voters")
    return (
      <RadixLink asChild size="2">
        <Link to={voterPath(target.id)}>{label}</Link>
      </RadixLink>
    );
  return <Text size="2">{label}</Text>;
}
