/**
 * What a designer says while its live connection is down (a co-edited document's status
 * "offline", lib/collab): edits go on and are kept in this browser, then sent and merged when the
 * connection returns. Nothing is shown while connected.
 */
import { Callout } from "@radix-ui/themes";

const OFFLINE_TEXT =
  "You are offline. Keep working: your changes are kept in this browser and sent to your teammates when the connection returns.";

export function ConnectionNotice({ status }: { status: string }) {
  if (status !== "offline") return null;
  return (
    <Callout.Root color="orange" size="1" role="status" data-testid="collab.offline" mb="3">
      <Callout.Text>{OFFLINE_TEXT}</Callout.Text>
    </Callout.Root>
  );
}
