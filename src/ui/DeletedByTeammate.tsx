import { Callout } from "@radix-ui/themes";

type DeletedByTeammateProps = {
  /** "group", "campaign", "sign", … */
  what: string;
  /** the teammate's name, when known */
  by: string | null | undefined;
  /** what it means for the open form ("Your changes cannot be saved.") */
  consequence?: string;
  testId?: string;
};

/** In a form editing a shared record: a teammate deleted the record (collaboration rules, DESIGN.md §5). */
export function DeletedByTeammate({ what, by, consequence, testId }: DeletedByTeammateProps) {
  return (
    <Callout.Root color="red" mb="3" role="alert" data-testid={testId}>
      <Callout.Text>
        This {what} was deleted by {by || "a teammate"}.{consequence ? ` ${consequence}` : ""}
      </Callout.Text>
    </Callout.Root>
  );
}
