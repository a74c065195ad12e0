import { Callout } from "@radix-ui/themes";
import { ERROR_MESSAGES } from "@convex/lib/errors";

/** A screen the viewer's role may not open: the catalogue's FORBIDDEN text (spec/1 §8). */
export function NoPermission() {
  return (
    <Callout.Root color="red" data-testid="noPermission">
      <Callout.Text>{ERROR_MESSAGES.FORBIDDEN}</Callout.Text>
    </Callout.Root>
  );
}
