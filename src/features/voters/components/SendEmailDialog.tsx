import { Badge, Button, Dialog, Flex, Text, TextArea, TextField } from "@radix-ui/themes";
import { useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { unknownVariables } from "@convex/lib/email/merge";
import { toast } from "@/ui/toast";
import { TEXTS } from "@convex/lib/texts";
import { useVoterEmail } from "../hooks/useVoterContact";

type SendEmailDialogProps = { voterId: Id<"voters">; to: string; open: boolean; onOpenChange(open: boolean): void };

/** Subject + message to one voter; queued on the server, demo mode labelled (spec/1 §5). */
export function SendEmailDialog({ voterId, to, open, onOpenChange }: SendEmailDialogProps) {
  const { status, send } = useVoterEmail(open);
  const [subject, setSubject] = useState("");
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const unknown = unknownVariables([subject, message]);

  const handleSend = async () => {
    if (!subject.trim()) {
      toast.error("Subject Required", { description: TEXTS.required.emailSubject });
      return;
    }
    if (!message.trim()) {
      toast.error("Message Required", { description: TEXTS.voterEmail.message });
      return;
    }
    setBusy(true);
    try {
      const r = await send({ voterId, subject, message });
      toast.success(r.demoMode ? "Email sent (demo mode)" : "Email sent", { description: `To ${to}` });
      setSubject("");
      setMessage("");
      onOpenChange(false);
    } catch (e) {
      toast.failure("Error Sending Email", e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="520px">
        <Dialog.Title>Send Email</Dialog.Title>
        {status?.demoMode && (
          <Badge color="amber" mb="2" style={{ whiteSpace: "normal" }}>
            Demo mode — no email leaves the server
          </Badge>
        )}
        <Dialog.Description size="2" mb="3" style={{ overflowWrap: "anywhere" }}>
          To: {to}
        </Dialog.Description>
        <Flex direction="column" gap="3">
          <label>
            <Text size="2" weight="medium">
              Subject
            </Text>
            <TextField.Root value={subject} onChange={(e) => setSubject(e.target.value)} aria-label="Subject" />
          </label>
          <label>
            <Text size="2" weight="medium">
              Message
            </Text>
            <TextArea rows={6} value={message} onChange={(e) => setMessage(e.target.value)} aria-label="Message" />
          </label>
          <Text size="1" color="gray">
            Personalize with variables such as {"{{voter.first_name}}"} or {"{{user.campaign_name}}"}.
          </Text>
          {unknown.length > 0 && (
            <Text size="2" color="red" role="alert" data-testid="sendEmail.unknownVariables">
              Unknown personalization {unknown.length === 1 ? "variable" : "variables"}:{" "}
              {unknown.map((u) => `{{${u}}}`).join(", ")}
            </Text>
          )}
        </Flex>
        <Flex gap="3" mt="4" justify="end" wrap="wrap">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </Dialog.Close>
          <Button onClick={() => void handleSend()} loading={busy} disabled={unknown.length > 0}>
            Send Email
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
