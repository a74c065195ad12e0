import { AlertDialog, Button, Flex } from "@radix-ui/themes";
import { OPT_OUT_TITLE } from "../hooks/useSmsSend";

type OptOutExceptionDialogProps = { message: string | null; busy: boolean; onConfirm(): void; onCancel(): void };

/** The server's preflight refusal (no organisation name or "Reply STOP"): fix the message, or confirm this send is an exception. */
export function OptOutExceptionDialog({ message, busy, onConfirm, onCancel }: OptOutExceptionDialogProps) {
  return (
    <AlertDialog.Root open={message !== null} onOpenChange={(o) => !o && onCancel()}>
      <AlertDialog.Content maxWidth="480px">
        <AlertDialog.Title>{OPT_OUT_TITLE}</AlertDialog.Title>
        <AlertDialog.Description size="2">{message}</AlertDialog.Description>
        <Flex gap="3" mt="4" justify="end" wrap="wrap">
          <AlertDialog.Cancel>
            <Button variant="soft" color="gray">
              Edit message
            </Button>
          </AlertDialog.Cancel>
          <Button color="amber" loading={busy} onClick={onConfirm}>
            Send anyway
          </Button>
        </Flex>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}
