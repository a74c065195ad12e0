import { Callout } from "@radix-ui/themes";
import type { ReactNode } from "react";

type RecordGoneProps = {
  /** "campaign", "form", "survey", "CTA", … */
  what: string;
  /** false for records only their owner deletes (a template) */
  byTeammate?: boolean;
  /** the way on ("Back to Forms") */
  action?: ReactNode;
  testId?: string;
};

/** What an open screen shows once its record no longer exists (one calm message, never the server's error). */
export function RecordGone({ what, byTeammate = true, action, testId = "recordGone" }: RecordGoneProps) {
  return (
    <Callout.Root color="orange" data-testid={testId}>
      <Callout.Text>
        This {what} no longer exists.{byTeammate ? " It may have been deleted by a teammate." : ""}
      </Callout.Text>
      {action}
    </Callout.Root>
  );
}
